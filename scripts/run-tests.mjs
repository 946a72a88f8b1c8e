#!/usr/bin/env node
// `npm test`: the static checks, the build, then the unit tests (Vitest) and the e2e tests
// (Playwright) side by side.
//
// Why side by side: alone, the e2e suite keeps about one core busy (its tests wait on a browser
// and a serve process), and Vitest leaves part of the other idle while its tests wait on child
// processes, files and sockets. Run one after the other they leave a 2-core machine half idle for
// minutes; together they fill it. Every test waits for events with bounds that hold on a loaded
// machine, which is what the two suites make for each other.
//
// Vitest prints as it goes; Playwright's report is kept and printed whole when it ends, so the two
// never interleave. Both run to the end even if one fails, and the run fails if any part failed.
import { spawn } from 'node:child_process';

const children = new Set();
// Ctrl+C or a stop reaches every part still running, not only this script.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(130);
  });
}

/**
 * Runs a command; resolves with its exit status and time. `held`: its output is kept until
 * `showLive()` is called, which prints what was kept and then prints as it comes.
 */
function run(cmd, args, { held = false } = {}) {
  const child = spawn(cmd, args, { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  children.add(child);
  let kept = '';
  let live = false;
  const take = (d) => (live ? process.stdout.write(d) : (kept += d));
  if (held) {
    child.stdout.on('data', take);
    child.stderr.on('data', take);
  }
  const started = Date.now();
  const done = new Promise((resolve) => {
    child.on('error', (error) => {
      process.stderr.write(`${cmd} could not start: ${error.message}\n`);
      resolve({ ok: false, ms: 0 });
    });
    child.on('close', (code) => {
      children.delete(child);
      resolve({ ok: code === 0, ms: Date.now() - started });
    });
  });
  return {
    done,
    showLive() {
      live = true;
      process.stdout.write(kept);
      kept = '';
    },
  };
}

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

function step(name) {
  process.stdout.write(`\n── ${name}\n`);
}

step('static checks');
const checks = await run(process.execPath, ['scripts/run-checks.mjs']).done;
if (!checks.ok) process.exit(1);

step('build');
const build = await run('npm', ['run', '--silent', 'build']).done;
if (!build.ok) process.exit(1);

step('unit tests (Vitest), with the e2e tests (Playwright) running beside them; their report follows');
const e2e = run('npm', ['run', '--silent', 'test:e2e'], { held: true });
const unit = await run('npm', ['run', '--silent', 'test:unit']).done;
step(
  `e2e tests (Playwright)${unit.ok ? '' : ', after the unit tests failed'}: what they printed so far, then as they go`,
);
e2e.showLive();
const e2eDone = await e2e.done;

const failed = [unit.ok ? null : 'unit tests', e2eDone.ok ? null : 'e2e tests'].filter(Boolean);
if (failed.length > 0) {
  process.stderr.write(`\nnpm test failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
process.stdout.write(`\nunit tests ${seconds(unit.ms)}, e2e tests ${seconds(e2eDone.ms)} (side by side): all passed\n`);
