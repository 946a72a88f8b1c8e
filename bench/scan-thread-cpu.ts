/**
 * The secret scan's CPU during a read of the 100 MB session, in process: each round reads the
 * session without a scanner, then with a scan thread started (and warmed up) for that round alone,
 * as a fresh backend's first open has it, and prints the reading thread's CPU (what a first open
 * pays on its critical path) and the scan thread's (`vak-secrets`: what competes with it for the
 * second core) during the read, and how many buffers for gated lines the scan thread had to make.
 * Then the same with the scan deferred as for a first screen (SecretScanner.deferUntilFirstScreen):
 * the reader's CPU during the read, and the scan thread's once the deferral ends (its lines read
 * back from the file, the page cache, and gated) until every line is scanned.
 * Each also prints wall times (the read; the deferral's end to every line scanned) and the process's
 * peak RSS over each read and its scan (VmHWM, reset before each). SCAN_SIZE=1g reads the 1 GiB
 * session (`ui --size 1g`'s) instead.
 *   node bin/run-ts.mjs bench/scan-thread-cpu.ts [ROUNDS]
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PROFILE } from '../src/shared/ledger-types';
import { Ledger } from '../src/main/core/ledger';
import { ScanThread } from '../src/main/secrets/scan-thread';
import { SecretScanner } from '../src/main/secrets/secret-scanner';
import { LINT_THREAD_NAME, THREAD_NAME } from '../src/main/secrets/scan-protocol';
import { prepareReal100 } from './real100-data';
import { procMB } from './real100-serve';
import { prepareEye1g } from './real1g-data';
import { readSchedstat } from './thread-times';

const rounds = Number(process.argv[2] ?? 5);
const r = process.env['SCAN_SIZE'] === '1g' ? prepareEye1g(() => {}) : prepareReal100(() => {});
const file = join(r.home, r.key);
const opts = { noteFullCosts: DEFAULT_PROFILE.bytes_per_token };

const ms = (path: string): number => readSchedstat(path).runNs / 1e6;
/** CPU of every scan thread of this process (only the one in use runs during a read); SCAN_LINT=1: their lint threads' too. */
const withLint = process.env['SCAN_LINT'] === '1';
function scanCpu(): number {
  let sum = 0;
  for (const t of readdirSync('/proc/self/task')) {
    const name = readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim();
    if (name === THREAD_NAME || (withLint && name === LINT_THREAD_NAME)) sum += ms(`/proc/self/task/${t}/schedstat`);
  }
  return sum;
}
const me = (): number => ms('/proc/thread-self/schedstat');
/** This process's peak RSS in MiB since the last reset (`resetPeak`). */
const peakMiB = (): number => procMB(process.pid, 'VmHWM') ?? 0;
const rssMiB = (): number => procMB(process.pid, 'VmRSS') ?? 0;
const resetPeak = (): void => {
  globalThis.gc?.();
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux, or not allowed: the peak is the process's.
  }
};
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const reader = new Map<string, number[]>();
const scan = new Map<string, number[]>();
const add = (m: Map<string, number[]>, k: string, v: number): void => void m.set(k, [...(m.get(k) ?? []), v]);
for (let k = 0; k < rounds; k++) {
  let c0 = me();
  (await Ledger.open(file, opts)).close();
  add(reader, 'none', me() - c0);
  const line: string[] = [`none ${(me() - c0).toFixed(0)}`];
  const thread = new ScanThread(undefined, { nice: null });
  thread.prepare();
  await new Promise((d) => setTimeout(d, 1500));
  const scanner = new SecretScanner(thread);
  resetPeak();
  const base0 = rssMiB();
  c0 = me();
  const s0 = scanCpu();
  const w0 = performance.now();
  const l = await Ledger.open(file, { ...opts, lineSink: scanner });
  const readWall = performance.now() - w0;
  const rc = me() - c0;
  // The read's last batch goes after a quiet moment: its gate belongs to the read.
  await new Promise((d) => setTimeout(d, 100));
  const sc = scanCpu() - s0;
  add(reader, 'scan', rc);
  add(scan, 'scan', sc);
  await scanner.whenIdle();
  const scAll = scanCpu() - s0;
  line.push(
    `with a scanner ${rc.toFixed(0)}, scan thread ${sc.toFixed(0)}, to the scan's end ${scAll.toFixed(0)} (${scanner.count} found, ${scanner.linesScanned} lines, gated-line buffers made ${thread.gatedBuffersMade}); wall: read ${readWall.toFixed(0)}, scan done ${(performance.now() - w0).toFixed(0)}; RSS ${base0.toFixed(0)} → peak ${peakMiB().toFixed(0)} MiB`,
  );
  l.close();
  await thread.stop();
  {
    const thread = new ScanThread(undefined, { nice: null });
    thread.prepare();
    await new Promise((d) => setTimeout(d, 1500));
    const deferred = new SecretScanner(thread);
    const st = statSync(file);
    deferred.file = { path: file, dev: st.dev, ino: st.ino };
    deferred.deferUntilFirstScreen();
    resetPeak();
    const base1 = rssMiB();
    c0 = me();
    const d0 = scanCpu();
    const w1 = performance.now();
    const l = await Ledger.open(file, { ...opts, lineSink: deferred });
    const readWall = performance.now() - w1;
    const peakRead = peakMiB();
    const rc = me() - c0;
    const sc = scanCpu() - d0;
    const e0 = scanCpu();
    const h0 = me();
    const e1 = performance.now();
    deferred.endDeferral();
    const handOver = me() - h0;
    await deferred.whenIdle();
    const scanWall = performance.now() - e1;
    const after = scanCpu() - e0;
    add(reader, 'deferred', rc);
    add(scan, 'deferred', sc);
    add(scan, 'deferred, after', after);
    line.push(
      `deferred ${rc.toFixed(0)}, scan thread ${sc.toFixed(0)}; handing over ${handOver.toFixed(0)}, scan thread after ${after.toFixed(0)} (${deferred.count} found, ${deferred.linesReadBack} lines read back, ${deferred.linesChanged} changed); wall: read ${readWall.toFixed(0)}, deferral's end → scan done ${scanWall.toFixed(0)}; RSS ${base1.toFixed(0)} → peak ${peakRead.toFixed(0)} over the read, ${peakMiB().toFixed(0)} with the scan`,
    );
    l.close();
    await thread.stop();
  }
  console.log(`round ${k + 1}, reader + scan thread CPU ms: ${line.join('; ')}`);
}
console.log(`scan thread after a deferral's end: median ${median(scan.get('deferred, after') ?? []).toFixed(0)} ms`);
for (const [name, v] of reader) {
  console.log(
    `${name}: reader ${median(v).toFixed(0)} ms, scan threads ${name === 'none' ? 0 : median(scan.get(name) ?? []).toFixed(0)} ms (medians)`,
  );
}
