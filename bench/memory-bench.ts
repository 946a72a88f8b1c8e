/**
 * `npm run bench -- memory`: "memory follows the index, not the payloads" on the
 * 1M-entry bench session (the `ui` bench's, generated once into bench/.data/ui-home, ~527 MB) and
 * the 1 GiB session (the `ui --size 1g` bench's, ~357k entries, generated once into
 * bench/.data/eye-1g-home; `--size 1m` or `--size 1g` measures only one of them):
 * the resident memory of a real `vak-explorer serve` (main thread + the ledger core's worker)
 * idle, after the session is opened and read to its end, after its first tree rows and the active
 * leaf's panes, and its peak; then after the chart's series, asked right after them (the chart is
 * open by default; past SERIES_ON_REQUEST_ENTRIES, as both of these, the renderer asks for it when
 * the user draws it); then a fresh process opening the same file from the kept index.
 * Goals: the 1 GiB session ≤ 0.5× the file; the 1M-entry one ≤ 0.6 GB (its entries are small: its
 * index, not its bytes, is what is held). The 100 MB session's figures (≤ 2× the file) are in
 * `bench -- real100`.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopServe } from './real100-reopen';
import { leafRequest } from './real100-selection';
import { procMB } from './real100-serve';
import { startApiServe } from './serve-child';
import { prepareEye1g } from './real1g-data';
import { prepareHome } from './ui-bench';
import { WsApiClient } from './ws-api-client';
import { wholeSeries } from '../src/shared/series-delta';
import { unpackSeries } from '../src/shared/series-packed';

type Log = (s: string) => void;

const MiB = 1 << 20;
/** A session's goal: the serving process's RSS at most this many MiB, named as it is in docs/performance.md. */
interface Goal {
  mib(fileMiB: number): number;
  text: string;
}
const HALF_THE_FILE: Goal = { mib: (fileMiB) => 0.5 * fileMiB, text: '≤ 0.5×' };
const SIX_TENTHS_GB: Goal = { mib: () => 0.6e9 / MiB, text: '≤ 0.6 GB' };
const f = (n: number | null, d = 0): string => (n === null ? '—' : n.toFixed(d));
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
  /** Then the chart's series of the active leaf, in as many answers as it takes (ContextSeries.rest). */
  seriesMs: number;
  seriesPages: number;
  afterSeries: number | null;
  peakWithSeries: number | null;
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
    const t2 = performance.now();
    // In pages, as the renderer asks for a long chain's series (ContextSeries.rest).
    let seriesPages = 0;
    await wholeSeries(null, async (held) => {
      seriesPages++;
      return unpackSeries((await c.call('getContextSeries', { ...leafRequest(key, null), held })).res);
    });
    const seriesMs = performance.now() - t2;
    const afterSeries = procMB(pid, 'VmRSS');
    const peakWithSeries = procMB(pid, 'VmHWM');
    c.close();
    return { idle, opened, after, peak, readMs, activeMs, seriesMs, seriesPages, afterSeries, peakWithSeries };
  } finally {
    await stopServe(server.child);
  }
}

function lines(label: string, m: Figures, fileMiB: number, goal: Goal, log: Log): void {
  const share = (v: number | null): string =>
    v === null
      ? '— (not measured)'
      : `${f(v / fileMiB, 2)}× the file, goal ${goal.text}: ${v <= goal.mib(fileMiB) ? 'ok' : 'MISS'}`;
  log(
    `  ${label}: idle ${f(m.idle)} MiB; open answered ${f(m.opened)} MiB; read whole (${f(m.readMs / 1000, 1)} s) + first rows + ` +
      `active leaf (${f(m.activeMs)} ms): ${f(m.after)} MiB (${share(m.after)}); peak ${f(m.peak)} MiB (${share(m.peak)})`,
  );
  log(
    `    then the chart's series (${f(m.seriesMs / 1000, 1)} s, ${m.seriesPages} answer${m.seriesPages === 1 ? '' : 's'}): ${f(m.afterSeries)} MiB (${share(m.afterSeries)}); ` +
      `peak ${f(m.peakWithSeries)} MiB (${share(m.peakWithSeries)})`,
  );
}

/** A session's two opens: a first one that reads it whole, then a fresh process from the kept index. */
async function measureSession(
  label: string,
  home: string,
  key: string,
  entries: number,
  bytes: number,
  goal: Goal,
  log: Log,
): Promise<void> {
  const fileMiB = bytes / MiB;
  log(`${label}: ${entries.toLocaleString('en-US')} entries, ${f(fileMiB)} MiB; serving process RSS (VmRSS, VmHWM):`);
  const dataDir = mkdtempSync(join(tmpdir(), 'vak-memory-'));
  try {
    lines('first open', await openAndMeasure(home, key, entries, dataDir), fileMiB, goal, log);
    const cacheDir = join(dataDir, 'vak-explorer', 'index-cache');
    const kept = existsSync(cacheDir) && readdirSync(cacheDir).some((n) => n.endsWith('.vkix'));
    lines(
      `second open, fresh process (${kept ? 'from the kept index' : 'no kept index was written: read whole'})`,
      await openAndMeasure(home, key, entries, dataDir),
      fileMiB,
      goal,
      log,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs the 1M-entry and the 1 GiB sessions' memory figures (`--size 1m|1g`: one of them) and logs them. */
export async function runMemoryBench(log: Log): Promise<void> {
  const i = process.argv.indexOf('--size');
  const size = i >= 0 ? process.argv[i + 1] : 'both';
  if (size !== '1g') {
    const p = prepareHome(log);
    await measureSession('1M-entry bench session', p.home, p.bigKey, p.bigEntries, p.bigBytes, SIX_TENTHS_GB, log);
  }
  if (size !== '1m') {
    const g = prepareEye1g(log);
    await measureSession('1 GiB session', g.home, g.key, g.entries, g.bytes, HALF_THE_FILE, log);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runMemoryBench((l) => process.stdout.write(l + '\n'));
}
