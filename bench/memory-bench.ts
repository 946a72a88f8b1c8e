/**
 * `npm run bench -- memory`: "memory follows the index, not the payloads" on the
 * 1M-entry bench session (the `ui` bench's, generated once into bench/.data/ui-home, ~527 MB):
 * the resident memory of a real `vak-explorer serve` (main thread + the ledger core's worker)
 * idle, after the session is opened and read to its end, after its first tree rows and the active
 * leaf's panes, and its peak; then a fresh process opening the same file from the kept index.
 * Goal: ≤ 0.6 GB. The 100 MB session's figures (≤ 2× the file) are in `bench -- real100`.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopServe } from './real100-reopen';
import { leafRequest } from './real100-selection';
import { procMB } from './real100-serve';
import { startApiServe } from './serve-child';
import { prepareHome } from './ui-bench';
import { WsApiClient } from './ws-api-client';

type Log = (s: string) => void;

const MiB = 1 << 20;
/** The bound, 0.6 GB (decimal), in MiB. */
const GOAL_MIB = 0.6e9 / MiB;
const f = (n: number | null, d = 0): string => (n === null ? '—' : n.toFixed(d));
const goal = (v: number | null): string => (v === null ? 'MISS (not measured)' : v <= GOAL_MIB ? 'ok' : 'MISS');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Figures {
  idle: number | null;
  /** Open answered (a big first open answers before it has read the whole file). */
  opened: number | null;
  /** Read to its end, first tree rows and the active leaf's first screen of panes asked. */
  after: number | null;
  peak: number | null;
  readMs: number;
  activeMs: number;
}

/** One serve process on `home` opens `key`, waits until all `entries` are read, and asks what a user's first screen asks. */
async function openAndMeasure(home: string, key: string, entries: number, dataDir: string): Promise<Figures> {
  const server = await startApiServe(home, { dataDir, timeoutMs: 120_000 });
  const pid = server.child.pid;
  try {
    const c = await WsApiClient.connect(server.url);
    await sleep(500);
    const idle = procMB(pid, 'VmRSS');
    const t0 = performance.now();
    let info = (await c.call('openSession', { key })).res;
    const opened = procMB(pid, 'VmRSS');
    // A first open of a big file answers early and reads the rest in steps: wait for the whole file.
    while (info.entryCount < entries) {
      await sleep(500);
      info = (await c.call('openSession', { key })).res;
    }
    const readMs = performance.now() - t0;
    await c.call('getTreeRows', { key, start: 0, count: 256, foldAudit: false });
    const t1 = performance.now();
    await c.call('getLeafView', { ...leafRequest(key, null), pagedMessages: true });
    const activeMs = performance.now() - t1;
    // The kept index is written a moment after the open: let it, so the peak includes it.
    await sleep(3000);
    const after = procMB(pid, 'VmRSS');
    const peak = procMB(pid, 'VmHWM');
    c.close();
    return { idle, opened, after, peak, readMs, activeMs };
  } finally {
    await stopServe(server.child);
  }
}

function lines(label: string, m: Figures, log: Log): void {
  log(
    `  ${label}: idle ${f(m.idle)} MiB; open answered ${f(m.opened)} MiB; read whole (${f(m.readMs / 1000, 1)} s) + first rows + ` +
      `active leaf (${f(m.activeMs)} ms): ${f(m.after)} MiB = ${f(m.after === null ? null : (m.after * MiB) / 1e9, 2)} GB ` +
      `(goal ≤ 0.6 GB: ${goal(m.after)}); peak ${f(m.peak)} MiB = ${f(m.peak === null ? null : (m.peak * MiB) / 1e9, 2)} GB (goal ≤ 0.6 GB: ${goal(m.peak)})`,
  );
}

/** Runs the 1M-entry session's memory figures and logs them. */
export async function runMemoryBench(log: Log): Promise<void> {
  const p = prepareHome(log);
  log(
    `1M-entry bench session: ${p.bigEntries.toLocaleString('en-US')} entries, ${f(p.bigBytes / MiB)} MiB; serving process RSS (VmRSS, VmHWM):`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'vak-memory-'));
  try {
    lines('first open', await openAndMeasure(p.home, p.bigKey, p.bigEntries, dataDir), log);
    const cacheDir = join(dataDir, 'vak-explorer', 'index-cache');
    const kept = existsSync(cacheDir) && readdirSync(cacheDir).some((n) => n.endsWith('.vkix'));
    lines(
      `second open, fresh process (${kept ? 'from the kept index' : 'no kept index was written: read whole'})`,
      await openAndMeasure(p.home, p.bigKey, p.bigEntries, dataDir),
      log,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runMemoryBench((l) => process.stdout.write(l + '\n'));
}
