/**
 * The secret gate over the 100 MB session's lines, in this process: the JavaScript gate
 * (mayHoldSecretBytes, line by line) and the WebAssembly one (a batch at a time, its copy into
 * the module's memory included), rounds alternating, as the scan thread sees them (lines copied
 * back to back into 1 MiB batches). Also the copy alone, and the lines that pass.
 *   node bin/run-ts.mjs bench/gate-bench.ts [ROUNDS]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareReal100 } from './real100-data';
import { jsLineGate, wasmLineGate } from '../src/main/secrets/secret-gate-wasm';
import { BATCH_BYTES } from '../src/main/secrets/scan-thread';

const rounds = Number(process.argv[2] ?? 7);
const { home } = prepareReal100(() => {});
/** The session's file: the one big ledger under the home. */
function findLedger(dir: string): string | null {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const f = findLedger(p);
      if (f) return f;
    } else if (e.name.endsWith('.jsonl')) return p;
  }
  return null;
}
const bytes = readFileSync(findLedger(home) ?? '');

/** The session's lines in batches as the reading thread makes them. */
const batches: { all: Buffer; ends: number[] }[] = [];
let cur = Buffer.alloc(BATCH_BYTES);
let ends: number[] = [];
let used = 0;
let lines = 0;
for (let at = 0; at < bytes.length;) {
  let nl = bytes.indexOf(10, at);
  if (nl < 0) nl = bytes.length;
  const line = bytes.subarray(at, nl);
  at = nl + 1;
  if (line.length === 0) continue;
  lines++;
  if (used + line.length > cur.length && ends.length > 0) {
    batches.push({ all: cur, ends });
    cur = Buffer.alloc(Math.max(BATCH_BYTES, line.length));
    ends = [];
    used = 0;
  }
  if (line.length > cur.length) cur = Buffer.alloc(line.length);
  used += line.copy(cur, used);
  ends.push(used);
}
if (ends.length > 0) batches.push({ all: cur, ends });

const wasm = wasmLineGate();
if (!wasm) throw new Error('no WebAssembly SIMD here');
const scratch = Buffer.alloc(Math.max(...batches.map((b) => b.all.length)));
const gates = {
  js: (b: (typeof batches)[number]) => jsLineGate.gateLines(b.all, b.ends),
  wasm: (b: (typeof batches)[number]) => wasm.gateLines(b.all, b.ends),
  /** What the scan thread does with a batch: the gate, then the passing lines copied out. */
  'wasm + passing lines copied': (b: (typeof batches)[number]) => {
    const pass = wasm.gateLines(b.all, b.ends);
    let at = 0;
    for (let k = 0; k < pass.length; k++)
      if (pass[k]) at += b.all.copy(scratch, at, k === 0 ? 0 : b.ends[k - 1], b.ends[k]);
    return pass;
  },
  copy: (b: (typeof batches)[number]) => {
    b.all.copy(scratch, 0, 0, b.ends[b.ends.length - 1]);
    return new Uint8Array(0);
  },
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(gates).map((k) => [k, []]));
const passed: Record<string, number> = {};
for (let r = 0; r < rounds; r++) {
  for (const [name, g] of Object.entries(gates)) {
    let pass = 0;
    const t0 = performance.now();
    for (const b of batches) for (const x of g(b)) pass += x;
    times[name].push(performance.now() - t0);
    passed[name] = pass;
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  `${lines} lines, ${(bytes.length / 1e6).toFixed(1)} MB, ${batches.length} batches, load ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
for (const [name, xs] of Object.entries(times)) {
  console.log(
    `${name}: ${xs.map((x) => x.toFixed(1)).join(' ')} ms (median ${median(xs).toFixed(1)} ms, ${((median(xs) * 1e6) / bytes.length).toFixed(3)} ns/byte)${name === 'copy' ? '' : `, ${passed[name]} lines pass`}`,
  );
}
