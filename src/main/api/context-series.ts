/**
 * Context over time: the projected context at every turn end along a
 * leaf's chain, stacked by part, with plan markers and the measured input beside it.
 *
 * Cost: one scan of the chain (core `chain-scan.ts`: every turn costed once at Full, and once
 * as recorded for points where it is the open turn), kept per ledger; then each point is planned
 * by the core (`turn-end.ts` over the plan engine: O(closed turns), no object per turn). Here:
 * which points, the scans kept, the steps, the measured input beside each point
 * (`series-measured.ts`) and its markers (`series-markers.ts`); the points are kept as columns
 * (`series-columns.ts`) until their pages are asked.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  PACKED_COLUMNS,
  type BytesPerTokenFit,
  type ContextPoint,
  type ContextSeries,
  type ContextSeriesDeltaRequest,
  type PackedContextSeries,
} from '../../shared/api-series';
import { packSeries, type PointList } from '../../shared/series-packed';
import { keptPoints } from '../../shared/series-delta';
import { KeyedQueue } from '../../shared/keyed-queue';
import { Lru } from '../../shared/lru';
import { chainToRoot } from '../core/chain';
import type { Ledger } from '../core/ledger';
import { PerReading } from '../core/per-reading';
import { fitBytesPerToken, type FitSample } from './series-fit';
import { PointColumns } from './series-columns';
import { PreviousPoint } from './series-markers';
import { measuredInput } from './series-measured';
import { runInSteps, STEP_MS } from './in-steps';
import { directivesOn, toldSteps, type BuildProgress } from './series-progress';
import { atOnce, type CancelSignal } from '../core/cancel';
import { scanChainSteps, turnEndPositions, type ChainScan } from '../core/chain-scan';
import { TurnEndPlanner, type PointEval } from '../core/turn-end';

/**
 * Scans kept per reading of a ledger (its generation: a reload or a rewrite in place starts over,
 * whatever the entry count), keyed by (entries read, leaf, bytes per token): a chart redrawn for
 * another window, plan or override set costs the points only, not the parse of every turn.
 */
const scans = new PerReading<Lru<string, ChainScan>>('chain scans');
const KEEP_SCANS = 4;

/** Series of one ledger are built one at a time: a second (a comparison's plan B) reuses the first's scan. */
const building = new KeyedQueue<Ledger>();

/**
 * What one answer's points may take as they travel (packed JSON, estimated high: `pointBytes`):
 * half of what one reply may carry (api-socket.ts MAX_REPLY_BYTES, 8 MiB). A series of 86,000 turn
 * ends (1M entries) packs to ~19 MB; it comes in pages (`ContextSeries.rest`).
 */
export const SERIES_PAGE_BYTES = 4 * 1024 * 1024;

/** Builds the series for `leaf` (an entry index) under the request's plan and profile, at once. */
export function contextSeries(
  ledger: Ledger,
  leaf: number,
  req: ContextSeriesDeltaRequest,
  pageBytes = SERIES_PAGE_BYTES,
): ContextSeries {
  const page = atOnce(seriesSteps(ledger, leaf, req, pageBytes));
  return { ...page, points: Array.from({ length: page.points.length }, (_, i) => page.points.point(i)) };
}

/**
 * The same in steps of ~STEP_MS, packed as it travels (`series-packed.ts`: read from the build's
 * columns one point at a time), other requests answered between the steps, stopped when `signal`
 * aborts (a newer selection superseded it). A 100 MB session's first series costs ~4 s (its scan
 * parses every turn again): in one piece it held every other request of the session that long —
 * the cursor's move to the active leaf after a first open, or a leaf clicked meanwhile.
 */
export function contextSeriesInSteps(
  ledger: Ledger,
  leaf: number,
  req: ContextSeriesDeltaRequest,
  signal?: CancelSignal,
  {
    stepMs = STEP_MS,
    pageBytes = SERIES_PAGE_BYTES,
    progress,
  }: { stepMs?: number; pageBytes?: number; progress?: BuildProgress } = {},
): Promise<PackedContextSeries> {
  return building.run(ledger, async () =>
    packSeries(await runInSteps(seriesSteps(ledger, leaf, req, pageBytes, progress), signal, stepMs)),
  );
}

/** An answer whose points are read from the build's columns (`PointColumns.page`). */
type SeriesPage = Omit<ContextSeries, 'points'> & { points: PointList };

/**
 * A series built whole, kept while its client asks for its pages (`ContextSeries.rest`), by basis,
 * entries read and leaf (as the scans): each page is then a slice, not every point built again (a
 * 1M-entry series in pages). The last page lets it go; at most two are kept (a plan comparison pages
 * two series at once), so one whose client stopped asking is pushed out by the next.
 */
interface Built {
  points: PointColumns;
  fit: BytesPerTokenFit;
  work: ContextSeries['work'];
}
const paged = new PerReading<Lru<string, Built>>('series pages');
const KEEP_PAGED = 2;

/** The series, pausing (yielding) after each turn of a scan and each point. */
function* seriesSteps(
  ledger: Ledger,
  leaf: number,
  req: ContextSeriesDeltaRequest,
  pageBytes: number,
  progress?: BuildProgress,
): Generator<void, SeriesPage> {
  const chain = chainToRoot(ledger.index, leaf);
  const basis = seriesBasis(ledger, req);
  const pages = paged.getOrMake(ledger, () => new Lru(KEEP_PAGED));
  const pagesKey = `${basis}:${ledger.index.count}:${leaf}`;
  const kept = req.held ? pages.peek(pagesKey) : undefined;
  const built = kept ?? (yield* buildSeries(ledger, leaf, chain, req, progress));
  const { points } = built;
  // Every point is built (the fit is over all of them, and each is marked against the one before):
  // only the answer is cut, to what the client does not hold already and one page.
  const stay = heldKept(ledger, chain, points, basis, req);
  const end = pageEnd(points, stay, pageBytes);
  if (end < points.length) pages.set(pagesKey, built);
  else pages.delete(pagesKey);
  return {
    leaf: ledger.index.ids[leaf],
    window: req.profile.window,
    reserve: req.profile.reserve,
    points: points.page(stay, end),
    fit: built.fit,
    work: kept ? { projections: 0, points: 0, scanned: false } : built.work,
    basis,
    kept: stay,
    rest: points.length - end,
  };
}

/**
 * Every point of the series for `leaf`, from its chain's scan (kept, or made and kept). Its steps,
 * told to `progress`: one per turn scanned, then one per turn end (about one per turn).
 */
function* buildSeries(
  ledger: Ledger,
  leaf: number,
  chain: Int32Array,
  req: ContextSeriesDeltaRequest,
  progress?: BuildProgress,
): Generator<void, Built> {
  const kept = scans.getOrMake(ledger, () => new Lru(KEEP_SCANS));
  const key = `${ledger.index.count}:${leaf}:${req.profile.bytes_per_token}`;
  const work = { projections: 0, points: 0, scanned: false };
  let scan = kept.peek(key);
  if (progress) {
    const turns = directivesOn(ledger, chain);
    progress.expect((scan ? 0 : turns) + turns + 1);
  }
  if (!scan) {
    scan = yield* toldSteps(scanChainSteps(ledger, chain, req.profile.bytes_per_token), progress);
    work.scanned = true;
  }
  const evaluator = new TurnEndPlanner(ledger, chain, scan, req, work);
  const estimateAt = (p: number): PointEval => evaluator.evaluate(p);
  const points = new PointColumns();
  const samples: FitSample[] = [];
  const prev = new PreviousPoint();
  for (const p of turnEndPositions(scan, chain.length)) {
    const ev = evaluator.evaluate(p);
    // Marked and kept before the measured input's estimate plans again (ev.fidelity is lent).
    const point = prev.point(ledger, chain, scan, p, ev);
    prev.keep(ev);
    point.measured = measuredInput(ledger, chain, req.profile.bytes_per_token, p, ev, estimateAt, samples);
    points.push(point, pointBytes(point));
    progress?.step();
    yield;
  }
  work.points = points.length;
  // Kept once a series stood on it (a scan that threw half-way is not), and a reused one becomes the newest.
  kept.set(key, scan);
  return { points, fit: fitBytesPerToken(samples), work };
}

/**
 * The chain's scan for (leaf, bytes per token), from the series' kept scans or made (and kept):
 * an entry's fate after the chart was drawn costs no scan.
 */
export function* keptScanSteps(ledger: Ledger, leaf: number, bpt: number): Generator<void, ChainScan> {
  const kept = scans.getOrMake(ledger, () => new Lru(KEEP_SCANS));
  const key = `${ledger.index.count}:${leaf}:${bpt}`;
  let scan = kept.peek(key);
  if (!scan) scan = yield* scanChainSteps(ledger, chainToRoot(ledger.index, leaf), bpt);
  kept.set(key, scan);
  return scan;
}

/** The end of the page of points from `from`: as many as `pageBytes` takes, and at least one. */
function pageEnd(points: PointColumns, from: number, pageBytes: number): number {
  let bytes = 0;
  for (let i = from; i < points.length; i++) {
    bytes += points.bytes(i);
    if (bytes > pageBytes && i > from) return i;
  }
  return points.length;
}

/**
 * A point's packed size, high: every column a number of up to 15 characters and a comma (they
 * travel as small differences), its time too, and each id it names in full (packed, an id
 * named again is an index).
 */
function pointBytes(p: ContextPoint): number {
  let n = (PACKED_COLUMNS.length + 1) * 16 + jsonBytes(p.leaf) + jsonBytes(p.turnId) + jsonBytes(p.markers.reset);
  if (p.measured) n += jsonBytes(p.measured.entryId) + jsonBytes(p.measured.answeredId);
  for (const id of p.markers.packets) n += jsonBytes(id);
  for (const id of p.markers.degraded) n += jsonBytes(id);
  return n;
}

/** A string's bytes as JSON text (UTF-8), high: quotes, a comma, and every escape as `\uXXXX`. */
function jsonBytes(s: string | null): number {
  if (s === null) return 0;
  let n = 3;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    n += c < 0x20 || c === 0x22 || c === 0x5c ? 6 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  return n;
}

/** Tells this process's series apart from another's: generations are numbered per process. */
const PROCESS = randomUUID();

/**
 * What a series' points are a function of, besides the chain: the ledger's reading (a reload, a
 * rewrite or a hash check's marks start a new generation; an append does not change a chain that
 * is already there), the plan, the whole profile and the overrides.
 */
export function seriesBasis(ledger: Ledger, req: ContextSeriesDeltaRequest): string {
  const overrides = Object.entries(req.overrides ?? {}).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const { window, reserve, bytes_per_token } = req.profile;
  const planKey = JSON.stringify([req.plan, window, reserve, bytes_per_token, overrides]);
  return `${PROCESS}.${ledger.generation}.${createHash('sha256').update(planKey).digest('base64url').slice(0, 22)}`;
}

/** Leading points of the request's held series that stand unchanged in `points` (0: none, or not held). */
function heldKept(
  ledger: Ledger,
  chain: Int32Array,
  points: PointColumns,
  basis: string,
  req: ContextSeriesDeltaRequest,
): number {
  const held = req.held;
  if (!held || held.basis !== basis) return 0;
  const h = ledger.indexOf(held.leaf);
  if (h === undefined) return 0;
  return keptPoints(chain, chainToRoot(ledger.index, h), points.positions(), held.points);
}
