/**
 * The first read's skimmer, variants side by side on the 100 MB real100 session (real100-data.ts):
 * each round runs every variant in a fresh Node process (a first open runs cold: the lexer's code
 * is compiled while it reads), in turn, and times what a first open's reader does with the file's
 * bytes — the lines split from 1 MiB chunks, checked, parsed (skimmed or whole) and noted
 * (LineFeeder → LineReader with FullNotes, as Ledger.open with noteFullCosts).
 *   node bin/run-ts.mjs bench/skim-ab.ts [ROUNDS] [VARIANT…]   (variants: whole, skimmed)
 * Prints per round and variant the read's wall time, its thread's CPU time (steadier than wall
 * time on a busy machine) and the process's (V8's helper threads too: the GC's), then their
 * medians and the paired differences from the first variant named. (Commit 0aa06ea ran a third,
 * the WebAssembly lexer then kept beside the TypeScript one: docs/skim-decision.md.)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FullNotes } from '../src/main/core/full-notes';
import { JsonSkim } from '../src/main/core/json-skim';
import { LedgerIndex } from '../src/main/core/ledger-index';
import { LineFeeder } from '../src/main/core/line-feeder';
import { LineReader } from '../src/main/core/line-reader';
import { DEFAULT_PROFILE } from '../src/shared/ledger-types';
import { prepareReal100 } from './real100-data';

const VARIANTS: Record<string, () => JsonSkim> = {
  whole: () => new JsonSkim(Number.POSITIVE_INFINITY),
  skimmed: () => new JsonSkim(),
};

const CHUNK = 1 << 20;

/** This thread's CPU time so far, in ms (Linux: /proc schedstat, in ns; the process's other threads are V8's helpers). */
function threadCpuMs(): number {
  return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

function child(variant: string, file: string): void {
  const bytes = readFileSync(file);
  const make = VARIANTS[variant];
  const index = new LedgerIndex();
  const reader = new LineReader(index, new FullNotes(DEFAULT_PROFILE.bytes_per_token, true), make());
  const feeder = new LineFeeder(reader, 0);
  const chunk = Buffer.allocUnsafe(CHUNK);
  const cpu0 = process.cpuUsage();
  const thread0 = threadCpuMs();
  const t0 = performance.now();
  for (let at = 0; at < bytes.length; at += CHUNK) {
    const n = bytes.copy(chunk, 0, at, at + CHUNK);
    feeder.push(chunk.subarray(0, n));
  }
  const ms = performance.now() - t0;
  const threadMs = threadCpuMs() - thread0;
  const cpu = process.cpuUsage(cpu0);
  console.log(JSON.stringify({ ms, threadMs, cpuMs: (cpu.user + cpu.system) / 1000, entries: index.count }));
}

function parent(rounds: number, names: string[]): void {
  const data = prepareReal100((s) => console.log(s));
  const file = join(data.home, data.key);
  console.log(
    `${data.bytes} bytes, ${data.entries} entries; node ${process.version}; ${rounds} rounds of ${names.join(', ')}`,
  );
  const wall = new Map<string, number[]>(names.map((n) => [n, []]));
  const thread = new Map<string, number[]>(names.map((n) => [n, []]));
  const cpu = new Map<string, number[]>(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    // Alternate the order: a round's first process may find the machine in another state.
    const order = r % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const run = spawnSync(
        process.execPath,
        [join(import.meta.dirname, '../bin/run-ts.mjs'), import.meta.filename, '--child', name, file],
        {
          encoding: 'utf8',
        },
      );
      if (run.status !== 0) throw new Error(`${name}: ${run.stderr}`);
      const got = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as {
        ms: number;
        threadMs: number;
        cpuMs: number;
        entries: number;
      };
      if (got.entries !== data.entries) throw new Error(`${name} read ${got.entries} entries, not ${data.entries}`);
      wall.get(name)?.push(Math.round(got.ms));
      thread.get(name)?.push(Math.round(got.threadMs));
      cpu.get(name)?.push(Math.round(got.cpuMs));
      console.log(
        `round ${r + 1} ${name}: ${Math.round(got.ms)} ms, reading thread CPU ${Math.round(got.threadMs)} ms, process CPU ${Math.round(got.cpuMs)} ms`,
      );
    }
  }
  const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  for (const [label, m] of [
    ['read', wall],
    ['reading thread CPU', thread],
    ['process CPU', cpu],
  ] as const) {
    for (const name of names) {
      const v = m.get(name) ?? [];
      console.log(`${label} ${name}: ${[...v].sort((a, b) => a - b).join(' ')} (median ${median(v)} ms)`);
    }
    const first = m.get(names[0]) ?? [];
    for (const name of names.slice(1)) {
      const v = m.get(name) ?? [];
      console.log(`${label} ${name} − ${names[0]}, paired: median ${median(v.map((x, k) => x - first[k]))} ms`);
    }
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') child(args[1], args[2]);
else {
  const rounds = Number(args[0] ?? 5);
  const names = args.length > 1 ? args.slice(1) : Object.keys(VARIANTS);
  if (!(rounds > 0) || names.some((n) => !(n in VARIANTS))) {
    console.error(`usage: bench/skim-ab.ts [ROUNDS] [${Object.keys(VARIANTS).join('|')}…]`);
    process.exit(2);
  }
  parent(rounds, names);
}
