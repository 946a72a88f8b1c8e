#!/usr/bin/env node
// The static checks of `npm test` (three type checks, ESLint, Prettier), run two at a time.
// They are independent and each is one single-threaded process, so on a two-core machine two at
// once halve the wall time; more would only fight over the cores. Each check's output is printed
// whole when it ends (never interleaved), and the run fails if any check failed.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const CHECKS = [
  ['types (main, CLI, tests)', 'tsc', ['--noEmit', '-p', 'tsconfig.node.json']],
  ['types (renderer)', 'tsc', ['--noEmit', '-p', 'tsconfig.web.json']],
  ['types (renderer tests)', 'tsc', ['--noEmit', '-p', 'tsconfig.renderer-tests.json']],
  ['lint', 'eslint', ['--max-warnings', '0', '.']],
  ['format', 'prettier', ['--check', '--log-level', 'warn', '.']],
];
const AT_ONCE = Math.max(1, Math.min(2, availableParallelism()));

function run([name, bin, args]) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npx', ['--no-install', bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ name, ok: false, output: `${output}${error.message}\n`, ms: 0 }));
    child.on('close', (code) => resolve({ name, ok: code === 0, output, ms: Date.now() - started }));
  });
}

const queue = [...CHECKS];
const results = [];
async function lane() {
  for (let next = queue.shift(); next; next = queue.shift()) {
    const result = await run(next);
    results.push(result);
    const seconds = (result.ms / 1000).toFixed(1);
    process.stdout.write(`${result.ok ? 'ok  ' : 'FAIL'} ${result.name} (${seconds} s)\n`);
    if (!result.ok || result.output.trim()) process.stdout.write(result.output.replace(/^/gm, '     '));
  }
}
await Promise.all(Array.from({ length: AT_ONCE }, lane));
const failed = results.filter((r) => !r.ok).map((r) => r.name);
if (failed.length > 0) {
  process.stderr.write(`static checks failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
