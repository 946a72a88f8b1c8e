/**
 * What a user does first on a 100 MB session, as API calls (the speed table at the API level):
 * open → first tree rows, → the active leaf's panes (paged: the first screen of the projected
 * pane; asked for right after the first rows, as the renderer does), a shallow / middle / deep leaf, and five quick `j` presses (five consecutive chain
 * entries, each request cancelling the one before, as a renderer that drops superseded
 * selections does; the figure is the 5th answer). Shared by the serve-mode and the in-process
 * (event-loop delay) parts, so both run the same script.
 */
import type { ApiMethod, ApiRequest, ApiResponse, LeafRequest } from '../src/shared/api';
import { sampleThreads, threadFigures, type ThreadFigures } from './thread-times';
import { DEFAULT_PROFILE } from '../src/shared/ledger-types';

/** One API call, answered with the response and its size as the transport sends it. */
export type Call = <M extends ApiMethod>(
  method: M,
  req: ApiRequest<M>,
  signal?: AbortSignal,
) => Promise<{ res: ApiResponse<M>; bytes: number }>;

export interface LeafFigure {
  label: string;
  /** Chain position of the leaf (0 = root). */
  pos: number;
  ms: number;
  bytes: number;
  messages: number;
  /** The answer was an error (e.g. a reply over the transport's size limit): its message. */
  error: string | null;
}

export interface SelectionFigures {
  openMs: number;
  firstRowsMs: number;
  /** Open → the active leaf's panes answered (first rows, then the leaf view right away). */
  activePanesMs: number;
  /** What the serving process's threads did from open to those panes (serve mode on Linux; else null). */
  activePanesThreads: ThreadFigures | null;
  entries: number;
  chainLength: number;
  active: LeafFigure;
  leaves: LeafFigure[];
  /** Five consecutive entries requested at once → the 5th answered. */
  jFiveMs: number;
  /** The chart's first series of the active leaf (asked with its panes), and a leaf asked meanwhile. */
  series: { ms: number; bytes: number; duringMs: number; duringError: string | null };
}

/** The UI's first page of tree rows (tree-cache PAGE_SIZE). */
const TREE_PAGE = 256;

/** The request the renderer sends for a leaf (plan auto, the default profile). */
export const leafRequest = (key: string, leaf: string | null): LeafRequest => ({
  key,
  leaf,
  plan: 'auto',
  profile: DEFAULT_PROFILE,
  overrides: {},
});

/**
 * What a first open asks before both panes can be drawn, one after the other as the UI does: the
 * open, the top page of tree rows, the active leaf's view. (The A/B benches time this.)
 */
export async function openToPanes(
  call: <M extends ApiMethod>(method: M, req: ApiRequest<M>) => Promise<unknown>,
  key: string,
): Promise<void> {
  await call('openSession', { key });
  await call('getTreeRows', { key, start: 0, count: TREE_PAGE, foldAudit: false });
  await call('getLeafView', { ...leafRequest(key, null), pagedMessages: true });
}

async function timed<T>(f: () => Promise<T>): Promise<{ v: T; ms: number }> {
  const t0 = performance.now();
  const v = await f();
  return { v, ms: performance.now() - t0 };
}

/** One leaf's panes, timed; an error answer is a figure too (it is what the user gets). */
async function leafFigure(call: Call, key: string, label: string, pos: number, id: string | null): Promise<LeafFigure> {
  const t0 = performance.now();
  try {
    const r = await call('getLeafView', { ...leafRequest(key, id), pagedMessages: true });
    const messages = r.res.messageCount;
    return { label, pos, ms: performance.now() - t0, bytes: r.bytes, messages, error: null };
  } catch (e) {
    return { label, pos, ms: performance.now() - t0, bytes: 0, messages: 0, error: (e as Error).message };
  }
}

/** Runs the script once on `key` through `call` (`servingPid`: the process answering, for its threads' times). */
export async function selectionScript(call: Call, key: string, servingPid?: number): Promise<SelectionFigures> {
  const threadsAtOpen = sampleThreads(servingPid);
  const t0 = performance.now();
  const info = await call('openSession', { key });
  const openMs = performance.now() - t0;
  await call('getTreeRows', { key, start: 0, count: TREE_PAGE, foldAudit: false });
  const firstRowsMs = performance.now() - t0;

  // The active leaf's panes, asked for as the renderer does once the first rows show: this
  // waits for the rest of a first read and the leaf's first costs (cold: every closed turn).
  const active = await leafFigure(call, key, 'active leaf', -1, null);
  const activePanesMs = performance.now() - t0;
  const activePanesThreads = threadFigures(servingPid, threadsAtOpen, sampleThreads(servingPid));
  // The chain's length: one chain item ending at the active leaf.
  const probe = await call('getChainItems', { ...leafRequest(key, null), start: 0, count: 1 });
  const chainLength = probe.res.chainLength;
  active.pos = chainLength - 1;
  // Ids by chain position, from the active leaf's (now cached) chain.
  const idAt = async (pos: number, count = 1): Promise<string[]> =>
    (await call('getChainItems', { ...leafRequest(key, null), start: pos, count })).res.items.map((i) => i.id);

  const leaves: LeafFigure[] = [];
  for (const [label, share] of [
    ['shallow leaf (2% deep)', 0.02],
    ['middle leaf (50%)', 0.5],
    ['deep leaf (98%)', 0.98],
  ] as const) {
    const pos = Math.floor(chainLength * share);
    const [id] = await idAt(pos);
    leaves.push(await leafFigure(call, key, label, pos, id));
  }
  // The chart (open by default) asks for the active leaf's context series with its panes: a first
  // one scans every turn again (seconds at 100 MB). A leaf clicked meanwhile must not wait for it.
  // (The leaf's id first: asked after the series, that request would wait for it where it blocks.)
  const [duringId] = await idAt(Math.floor(chainLength * 0.6));
  const seriesAsked = timed(() => call('getContextSeries', leafRequest(key, null)));
  const during = await leafFigure(call, key, 'a leaf asked while the series is built', -1, duringId);
  const seriesDone = await seriesAsked;
  const series = {
    ms: seriesDone.ms,
    bytes: seriesDone.v.bytes,
    duringMs: during.ms,
    duringError: during.error,
  };

  const jIds = await idAt(Math.floor(chainLength * 0.9), 5);
  // Each press supersedes the one before: its request is aborted (the backend drops or stops it).
  const j = await timed(async () => {
    let previous: AbortController | null = null;
    const answers = jIds.map((id) => {
      previous?.abort();
      const ctl = new AbortController();
      previous = ctl;
      return call('getLeafView', { ...leafRequest(key, id), pagedMessages: true }, ctl.signal);
    });
    return Promise.allSettled(answers);
  });
  return {
    openMs,
    firstRowsMs,
    activePanesMs,
    activePanesThreads,
    entries: info.res.entryCount,
    chainLength,
    active,
    leaves,
    jFiveMs: j.ms,
    series,
  };
}
