/**
 * `npm run bench -- real100`: the speed table on its own shape — a generated, spec-conformant
 * ~100 MB ledger (~36k entries, one ~35k-entry active chain, every turn Full) — measured at the
 * API level in serve mode (a real `vak-explorer serve`), plus the main thread's event-loop delay
 * with the backend on the main thread and on a worker thread. Absolute times against the
 * issue's goals; memory as a ratio to the file's size.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { prepareReal100 } from './real100-data';
import { eventLoopFigures, type EventLoopFigures } from './real100-event-loop';
import type { LeafFigure, SelectionFigures } from './real100-selection';
import { describeThreads, readSteal } from './thread-times';
import { REST_MS, serveFigures, type ServeFigures } from './real100-serve';

type Log = (s: string) => void;

const MB = 1 << 20;
const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
const median = (xs: number[]): number => sorted(xs)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]): number => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const f = (n: number | null, d = 0): string => (n === null ? '—' : n.toFixed(d));
const goal = (v: number | null, max: number): string => (v === null ? 'MISS (not measured)' : v <= max ? 'ok' : 'MISS');

function leafLine(l: LeafFigure): string {
  const what =
    l.error === null ? `${f(l.bytes / 1024)} KB answer, ${l.messages} messages` : `ERROR ${l.error.slice(0, 90)}`;
  return `${l.label.padEnd(24)} pos ${String(l.pos).padStart(6)}: ${f(l.ms).padStart(6)} ms, ${what}`;
}

function selectionLines(s: SelectionFigures, log: Log, indent: string): void {
  log(
    `${indent}open → first tree rows: ${f(s.firstRowsMs)} ms (openSession ${f(s.openMs)} ms; goal ≤ 300: ${goal(s.firstRowsMs, 300)})`,
  );
  log(
    `${indent}${leafLine(s.active)}; open → its panes ${f(s.activePanesMs)} ms (goal ≤ 1000: ${goal(s.activePanesMs, 1000)})`,
  );
  if (s.activePanesThreads !== null) log(`${indent}  meanwhile ${describeThreads(s.activePanesThreads)}`);
  for (const l of s.leaves) log(`${indent}${leafLine(l)} (goal ≤ 150: ${goal(l.ms, 150)})`);
  log(
    `${indent}five quick j (5 consecutive leaves at 90%) → 5th answered: ${f(s.jFiveMs)} ms (goal ≤ 300: ${goal(s.jFiveMs, 300)})`,
  );
  const during = s.series.duringError ?? `${f(s.series.duringMs)} ms (goal ≤ 150: ${goal(s.series.duringMs, 150)})`;
  log(
    `${indent}the chart's first series of the active leaf (${f(s.series.bytes / 1024)} KB): ${f(s.series.ms)} ms; ` +
      `a leaf asked meanwhile (60% deep) answered in ${during}`,
  );
}

function eventLoopLines(runs: EventLoopFigures[], log: Log): void {
  for (const r of runs) {
    log(
      `  backend on the ${r.label}: event-loop delay max ${f(r.maxMs, 1)} ms, p99 ${f(r.p99Ms, 1)} ms (goal max ≤ 20: ${goal(r.maxMs, 20)}); ` +
        `longest JSON.stringify of one answer on the main thread ${f(r.longestSerializeMs)} ms`,
    );
    const st = r.longestStall;
    if (st !== null) {
      log(
        `      its longest stall (2 ms ticks): ${f(st.ms, 1)} ms, of which the main thread ran ${f(st.ranMs, 1)} ms ` +
          `and waited ${f(st.waitedMs, 1)} ms for a core (/proc/thread-self/schedstat)` +
          (st.hostStealMs === null
            ? ''
            : `; the host took ${st.hostStealMs} ms of this machine's CPUs meanwhile (steal)`),
      );
    }
    selectionLines(r.selection, log, '      ');
  }
  if (runs.length === 2) {
    log(
      `  worker / main thread: event-loop delay max ${f(runs[1].maxMs / runs[0].maxMs, 3)}×, p99 ${f(runs[1].p99Ms / runs[0].p99Ms, 3)}×; ` +
        `deep leaf's answer time ${f(runs[1].selection.leaves[2].ms / runs[0].selection.leaves[2].ms, 2)}× (same work plus the clone across threads; 2 shared cores make this noisy)`,
    );
  }
}

/** The serving process's resident memory against the file's size (≤ 2× the file), and above the idle process. */
function memoryLines(s: ServeFigures, fileMB: number, log: Log): void {
  const times = (v: number | null): number | null => (v === null ? null : v / fileMB);
  const above = (v: number | null): number | null => (v === null || s.idleRssMB === null ? null : v - s.idleRssMB);
  log(
    `  serving process RSS after open + active leaf: ${f(s.rssAfterOpenMB)} MiB = ${f(times(s.rssAfterOpenMB), 2)}× the file (goal ≤ 2×: ${goal(times(s.rssAfterOpenMB), 2)}); ` +
      `peak over the run ${f(s.peakRssMB)} MiB = ${f(times(s.peakRssMB), 2)}× (goal ≤ 2×: ${goal(times(s.peakRssMB), 2)})`,
  );
  log(
    `  at rest, the lowest over ${REST_MS / 1000} s without a request after it: ${f(s.restRssMB)} MiB = ${f(times(s.restRssMB), 2)}× the file (goal ≤ 2×: ${goal(times(s.restRssMB), 2)})`,
  );
  log(
    `  back within 2× the file: ${s.withinGoalAfterMs === null ? `not within ${REST_MS / 1000} s` : `${f(s.withinGoalAfterMs / 1000, 1)} s after it`} (V8 gives a heap's free space back once its memory reducer ran)`,
  );
  log(
    `  the same above the idle serving process (${f(s.idleRssMB)} MiB, no session open): ` +
      `${f(above(s.rssAfterOpenMB))} MiB = ${f(times(above(s.rssAfterOpenMB)), 2)}× the file; peak ${f(above(s.peakRssMB))} MiB = ${f(times(above(s.peakRssMB)), 2)}×`,
  );
}

/** Runs the 100 MB figures and logs them. */
export async function runReal100Bench(log: Log): Promise<void> {
  const data = prepareReal100(log);
  const stealAtStart = readSteal();
  const t0 = performance.now();
  log(
    `session: ${f(data.bytes / MB, 1)} MiB, ${data.entries.toLocaleString('en-US')} entries, every turn Full (generator shape realSizeUncompacted)`,
  );
  log('serve mode (API over the WebSocket, as the renderer calls it):');
  const s = await serveFigures(data, log);
  selectionLines(s.selection, log, '  ');
  memoryLines(s, data.bytes / MB, log);
  log(
    `  append → session event: median ${f(median(s.appendEventMs), 1)} ms, p95 ${f(p95(s.appendEventMs), 1)} ms; ` +
      `→ visible (delta patch + the new active leaf's first screen): median ${f(median(s.appendVisibleMs))} ms (goal ≤ 50: ${goal(median(s.appendVisibleMs), 50)})`,
  );
  log(`  second open, same process (cached) → first rows: ${f(s.reopenSameProcessMs)} ms`);
  log(
    `  second open, fresh process (kept index + the appends since) → first rows ${f(s.freshOpen.firstRowsMs)} ms (goal ≤ 200: ${goal(s.freshOpen.firstRowsMs, 200)}), then the active leaf's panes +${f(s.freshOpen.activeLeafMs)} ms`,
  );
  log('main thread of the serving process (in-process backend, same script):');
  eventLoopLines(await eventLoopFigures(data, log), log);
  const stealAtEnd = readSteal();
  if (stealAtStart !== null && stealAtEnd !== null) {
    // On a virtual machine whose host runs other guests on its cores the figures above move with it.
    const share = (stealAtEnd - stealAtStart) / ((performance.now() - t0) * availableParallelism());
    log(`the host took ${f(share * 100)} % of this machine's CPU time during this bench (steal, /proc/stat)`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runReal100Bench((l) => process.stdout.write(l + '\n'));
}
