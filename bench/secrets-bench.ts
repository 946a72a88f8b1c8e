/**
 * What secret scanning adds to a first open of the 100 MB session, in process:
 *   node bin/run-ts.mjs bench/secrets-bench.ts [runs]
 * Alternately, fresh ledgers: the read without a scanner, and with one (the read, then until the
 * last line is scanned), plus the longest step the scanner held the event loop. This thread plays
 * the backend worker: its own CPU time (schedstat, steadier than wall time on a shared machine)
 * is what a first open pays; the scan thread's runs beside it. Two scanners: the scan thread at
 * its lowest priority (as shipped) and at this thread's own (`same priority`), each its own thread.
 */
import { join } from 'node:path';
import { readSchedstat } from './thread-times';
import { DEFAULT_PROFILE } from '../src/shared/ledger-types';
import { Ledger } from '../src/main/core/ledger';
import { ScanThread } from '../src/main/secrets/scan-thread';
import { SecretScanner } from '../src/main/secrets/secret-scanner';
import { prepareReal100 } from './real100-data';

const runs = Number(process.argv[2] ?? 3);
const r = prepareReal100((s) => console.log(s));
const file = join(r.home, r.key);
const opts = { noteFullCosts: DEFAULT_PROFILE.bytes_per_token };

const lowest = new ScanThread();
const same = new ScanThread(undefined, { nice: null });

async function once(thread: ScanThread | null): Promise<string> {
  const scanner = thread ? new SecretScanner(thread) : null;
  const fresh0 = thread?.freshBuffers ?? 0;
  let longest = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
  }, 5);
  const cpu = (): number => readSchedstat('/proc/thread-self/schedstat').runNs / 1e6;
  const c0 = cpu();
  const t0 = performance.now();
  const l = await Ledger.open(file, scanner ? { ...opts, lineSink: scanner } : opts);
  const read = performance.now() - t0;
  const readCpu = cpu() - c0;
  await scanner?.whenIdle();
  const scanned = performance.now() - t0;
  const allCpu = cpu() - c0;
  clearInterval(probe);
  l.close();
  return scanner
    ? `with scanner (${thread === same ? 'same priority' : 'lowest priority'}): read ${read.toFixed(0)} ms (this thread's CPU ${readCpu.toFixed(0)} ms), all scanned ${scanned.toFixed(0)} ms ` +
        `(this thread's CPU ${allCpu.toFixed(0)} ms, scanned on thread ${scanner.scannedOn}); ${scanner.count} findings, ` +
        `${scanner.textsLinted} texts through the gate of ${scanner.linesScanned} lines; ` +
        `${(thread?.freshBuffers ?? 0) - fresh0} fresh batch buffers; event loop held ≤ ${longest.toFixed(0)} ms`
    : `without scanner: read ${read.toFixed(0)} ms (this thread's CPU ${readCpu.toFixed(0)} ms); event loop held ≤ ${longest.toFixed(0)} ms`;
}

console.log(`100 MB session: ${r.entries} entries, ${r.bytes} bytes`);
for (let k = 0; k < runs; k++) {
  console.log(await once(null));
  console.log(await once(lowest));
  console.log(await once(same));
}
await lowest.stop();
await same.stop();
