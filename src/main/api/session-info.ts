import type {
  ChildRunLink,
  HeaderInfo,
  ReadingProgress,
  SessionInfo,
  SessionSummary,
  WorkItems,
  WorkSummary,
} from '../../shared/api';
import type { WorkItem } from '../../shared/ledger-types';
import { chainToRoot } from '../core/chain';
import { KIND } from '../core/ledger-index';
import { usageTotals } from '../core/usage';
import { PerReading } from '../core/per-reading';
import { foldWork } from '../core/work-fold';
import { clipForTransport } from './transport-clip';
import type { SessionLibrary } from '../library/session-library';
import type { OpenSession } from '../library/session-cache';

/** The header's fields the UI shows, or null without a header on line 1. */
function headerInfo(s: OpenSession): HeaderInfo | null {
  const ix = s.ledger.index;
  if (ix.header < 0) return null;
  const h = s.ledger.entry(ix.header);
  if (h.kind !== 'header') return null;
  return {
    entryId: h.id,
    sessionId: h.session_id,
    model: h.model,
    provider: h.provider,
    cwd: h.cwd,
    appVersion: h.app_version,
    permissionMode: h.permission_mode,
  };
}

/** A `child_run` entry's link without its key (the library's, looked up at each answer). */
type ChildRun = Omit<ChildRunLink, 'key'>;

/** The `child_run` entries among `at` (their indexes), in file order. */
function childRunsAt(s: OpenSession, at: readonly number[]): ChildRun[] {
  const out: ChildRun[] = [];
  for (const i of at) {
    const e = s.ledger.entry(i);
    if (e.kind !== 'child_run') continue; // malformed: no child session to link
    const c = e.child_run;
    out.push({
      entryId: s.ledger.index.ids[i],
      childSessionId: c.child_session_id,
      agent: c.agent,
      outcome: c.outcome,
    });
  }
  return out;
}

/** Every `child_run` entry, linked to its child session's key when the library has it. */
export function childRuns(s: OpenSession, library: SessionLibrary): ChildRunLink[] {
  return entryFigures(s).childRuns.map((c) => ({ ...c, key: library.keyOf(c.childSessionId, c.agent || undefined) }));
}

/**
 * What an open's answer derives from the entries read alone. Kept for the reading's generation
 * (a reading from byte 0, a hash check's marks give a new one) while its entry count and active
 * leaf hold: a second client's open, a reload, a re-subscribe take it as it is.
 */
interface EntryFigures {
  count: number;
  activeLeaf: number;
  branchPoints: number;
  leaves: number;
  usage: SessionInfo['usage'];
  header: HeaderInfo | null;
  childRuns: ChildRun[];
}

const figuresKept = new PerReading<EntryFigures>('open figures');

/**
 * The session's branch points now (the library row's exact count): the kept figures' when they are
 * current (an open's, whose answer then takes them), counted alone otherwise (an append's news,
 * which needs no more of them).
 */
export function branchPointCount(s: OpenSession): number {
  return keptFigures(s)?.branchPoints ?? s.ledger.index.branchPoints().length;
}

/** Takes the session's entry figures now, unless they are kept already (an open, before its library row). */
export function keepEntryFigures(s: OpenSession): void {
  entryFigures(s);
}

/** The kept entry figures when nothing was read since they were taken. */
function keptFigures(s: OpenSession): EntryFigures | undefined {
  const ix = s.ledger.index;
  const kept = figuresKept.get(s.ledger);
  return kept !== undefined && kept.count === ix.count && kept.activeLeaf === ix.activeLeaf ? kept : undefined;
}

/**
 * The session's entry figures now: kept ones when nothing was read since, otherwise one pass over
 * the entries for branch points, leaves and child runs (a fresh server's open runs it in cold code,
 * where one loop costs a fraction of three), the usage of every entry, and that of the chain up
 * from the active leaf, walked with no array of the chain built.
 */
function entryFigures(s: OpenSession): EntryFigures {
  const kept = keptFigures(s);
  if (kept !== undefined) return kept;
  const ix = s.ledger.index;
  const { childCount, kind } = ix;
  const n = ix.count;
  let branchPoints = 0;
  let leaves = 0;
  const childRunAt: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = childCount[i];
    if (c > 1) branchPoints++;
    else if (c === 0) leaves++;
    if (kind[i] === KIND.child_run) childRunAt.push(i);
  }
  const figures: EntryFigures = {
    count: n,
    activeLeaf: ix.activeLeaf,
    branchPoints,
    leaves,
    usage: {
      activeChain: usageTotals(s.ledger, { upFrom: ix.activeLeaf }),
      allBranches: usageTotals(s.ledger, 'all'),
    },
    header: headerInfo(s),
    childRuns: childRunsAt(s, childRunAt),
  };
  figuresKept.set(s.ledger, figures);
  return figures;
}

/** A work item whose state and detail (ledger values of any size and depth) can cross a process boundary. */
function sendableWork(w: WorkItem): WorkItem {
  const state = clipForTransport(w.state);
  const detail = clipForTransport(w.detail);
  return state.clipped || detail.clipped ? { ...w, state: state.value, detail: detail.value } : w;
}

/**
 * The work items of the active chain, ready to cross a process boundary. Extends the session's
 * last fold when its tip is on this chain (an append, a reopen from a kept index) and keeps the
 * new one. Kept items are the sendable ones: folding later events over a clipped state or detail
 * gives what clipping the whole fold would, since an event replaces them whole.
 */
export function activeWork(s: OpenSession, activeChain: Int32Array): readonly WorkItem[] {
  const from = s.work !== null && s.work.index === s.ledger.index ? s.work.fold : null;
  // Kept up to this very chain's tip (a reload's open, the panel's ask): nothing to fold or clip.
  if (from !== null && activeChain.length > 0 && from.tip === activeChain[activeChain.length - 1]) return from.items;
  // A kept item's state and detail were clipped already: an item no later event changed is not walked again.
  const sent = new Set<unknown>();
  for (const w of from?.items ?? []) sent.add(w.state).add(w.detail);
  const items = foldWork(s.ledger, activeChain, from).map((w) =>
    sent.has(w.state) && sent.has(w.detail) ? w : sendableWork(w),
  );
  s.work =
    activeChain.length > 0
      ? { index: s.ledger.index, fold: { tip: activeChain[activeChain.length - 1], items } }
      : null;
  return items;
}

/** Summaries of kept folds: an open of an unchanged session (a reload) looks none of its items up again. */
const summaries = new WeakMap<readonly WorkItem[], WorkSummary>();

/**
 * The newest of the fold's last work entries when `items` are the session's kept fold: every one
 * is an entry on the chain up from its tip (ids are unique), so the first met walking up is the
 * newest, found without mapping every id of a session whose ids do not increase. -1 otherwise.
 */
function newestOnChain(s: OpenSession, items: readonly WorkItem[]): number {
  const ix = s.ledger.index;
  const fold = s.work !== null && s.work.index === ix && s.work.fold.items === items ? s.work.fold : null;
  if (fold === null || items.length === 0 || fold.tip >= ix.count) return -1;
  const last = new Set<string>();
  for (const w of items) last.add(w.last_entry);
  const { kind, ids, parent } = ix;
  for (let i = fold.tip; i >= 0; i = parent[i]) if (kind[i] === KIND.work && last.has(ids[i])) return i;
  return -1;
}

/** What identifies a fold of work items: their count and the newest work entry among their last events. */
export function workSummary(s: OpenSession, items: readonly WorkItem[]): WorkSummary {
  const kept = summaries.get(items);
  if (kept) return kept;
  let newest = newestOnChain(s, items);
  if (newest < 0) for (const w of items) newest = Math.max(newest, s.ledger.indexOf(w.last_entry) ?? -1);
  const summary = { count: items.length, newest: newest < 0 ? null : s.ledger.index.ids[newest] };
  summaries.set(items, summary);
  return summary;
}

/** The active chain's work items now: the kept fold when it is up to the active leaf, with no chain built for it. */
function activeWorkNow(s: OpenSession): readonly WorkItem[] {
  const ix = s.ledger.index;
  const kept = s.work;
  if (ix.count > 0 && kept !== null && kept.index === ix && kept.fold.tip === ix.activeLeaf) return kept.fold.items;
  return activeWork(s, ix.count > 0 ? chainToRoot(ix, ix.activeLeaf) : new Int32Array(0));
}

/** The active chain's work items now (`getWork`), with the summary `openSession` would give of them. */
export function workItems(s: OpenSession): WorkItems {
  const items = activeWorkNow(s);
  return { key: s.key, work: workSummary(s, items), items: [...items] };
}

/** An opened session's figures for the UI. */
export function sessionInfo(s: OpenSession, summary: SessionSummary, library: SessionLibrary): SessionInfo {
  const { ledger, layout } = s;
  const ix = ledger.index;
  const warningCount = ledger.warningsSoFar().length;
  const figures = entryFigures(s);
  return {
    key: s.key,
    summary,
    header: figures.header,
    generation: s.readingId,
    entryCount: ix.count,
    activeLeaf: ix.count > 0 ? ix.ids[ix.activeLeaf] : null,
    warningCount,
    branchPoints: figures.branchPoints,
    leaves: figures.leaves,
    rowCount: layout.rowCount(false),
    foldedRowCount: layout.rowCount(true),
    laneCount: layout.laneCount,
    usage: { activeChain: { ...figures.usage.activeChain }, allBranches: { ...figures.usage.allBranches } },
    work: workSummary(s, activeWorkNow(s)),
    childRuns: childRuns(s, library),
    appendOnlyBreaks: [...ledger.appendOnlyBreaks],
    reading: readingProgress(s),
    checkingHashes: ledger.hashCheckPending,
    ...(ix.count > 0
      ? {
          activeLeafRows: { row: layout.findRow(ix.activeLeaf, false), foldedRow: layout.findRow(ix.activeLeaf, true) },
        }
      : {}),
  };
}

/** How far a session read in steps has come; null once it has read to the end. */
export function readingProgress(s: OpenSession): ReadingProgress | null {
  if (!s.reading) return null;
  return {
    bytesRead: s.ledger.bytesRead,
    bytesTotal: Math.max(s.ledger.bytesRead, s.ledger.source.size()),
    entriesRead: s.ledger.index.count,
  };
}
