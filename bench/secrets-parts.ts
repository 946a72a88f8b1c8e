/**
 * Where the reading thread's share of the secret scan goes, in process, on the 100 MB session:
 *   node bin/run-ts.mjs bench/secrets-parts.ts [runs]
 * Alternately: no sink; a sink that only returns; one that copies each line into a reused
 * buffer; the scanner as shipped. This thread's own CPU time (schedstat) for the read.
 */
import { join } from 'node:path';
import { readSchedstat } from './thread-times';
import { DEFAULT_PROFILE } from '../src/shared/ledger-types';
import { Ledger } from '../src/main/core/ledger';
import type { LineSink } from '../src/main/core/line-reader';
import { ScanThread } from '../src/main/secrets/scan-thread';
import { SecretScanner } from '../src/main/secrets/secret-scanner';
import { prepareReal100 } from './real100-data';

const runs = Number(process.argv[2] ?? 3);
const only = process.argv[3] ? process.argv[3].split(',') : null;
const r = prepareReal100(() => {});
const file = join(r.home, r.key);
const opts = { noteFullCosts: DEFAULT_PROFILE.bytes_per_token };
const thread = new ScanThread();
const copyBuf = Buffer.alloc(1 << 20);
let at = 0;
const sinks: [string, () => (LineSink & { restart(n: number): void; whenIdle?(): Promise<void> }) | null][] = [
  ['none', () => null],
  ['noop', () => ({ entryLine() {}, restart() {} })],
  [
    'copy',
    () => ({
      entryLine(b: Buffer) {
        if (at + b.length > copyBuf.length) at = 0;
        if (b.length <= copyBuf.length) at += b.copy(copyBuf, at);
      },
      restart() {},
    }),
  ],
  ['scanner', () => new SecretScanner(thread)],
];
const cpu = (): number => readSchedstat('/proc/thread-self/schedstat').runNs / 1e6;
const res = new Map<string, number[]>();
for (let k = 0; k < runs; k++) {
  for (const [name, make] of sinks) {
    if (only && !only.includes(name)) continue;
    const sink = make();
    const c0 = cpu();
    const l = await Ledger.open(file, sink ? { ...opts, lineSink: sink } : opts);
    const used = cpu() - c0;
    await sink?.whenIdle?.();
    l.close();
    res.set(name, [...(res.get(name) ?? []), used]);
    console.log(`${name}: ${used.toFixed(0)} ms`);
  }
}
for (const [name, v] of res) {
  const base = res.get('none') ?? v;
  const d = v.map((x, i) => x - base[i]).sort((a, b) => a - b);
  console.log(
    `${name}: median ${[...v].sort((a, b) => a - b)[v.length >> 1].toFixed(0)} ms, paired vs none ${d[d.length >> 1].toFixed(0)} ms`,
  );
}
await thread.stop();
