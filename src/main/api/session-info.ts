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

/** Every `child_run` entry, linked to its child session's key when the library has it. */
export function childRuns(s: OpenSession, library: SessionLibrary): ChildRunLink[] {
  const ix = s.ledger.index;
  const out: ChildRunLink[] = [];
  for (let i = 0; i < ix.count; i++) {
    if (ix.kind[i] !== KIND.child_run) continue;
    const e = s.ledger.entry(i);
    if (e.kind !== 'child_run') continue; // malformed: no child session to link
    const c = e.child_run;
    out.push({
      entryId: ix.ids[i],
      childSessionId: c.child_session_id,
      agent: c.agent,
      outcome: c.outcome,
      key: library.keyOf(c.child_session_id, c.agent || undefined),
    });
  }
  return out;
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
export function activeWork(s: OpenSession, activeChain: readonly number[]): readonly WorkItem[] {
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

/** What identifies a fold of work items: their count and the newest work entry among their last events. */
export function workSummary(s: OpenSession, items: readonly WorkItem[]): WorkSummary {
  const kept = summaries.get(items);
  if (kept) return kept;
  let newest = -1;
  for (const w of items) newest = Math.max(newest, s.ledger.indexOf(w.last_entry) ?? -1);
  const summary = { count: items.length, newest: newest < 0 ? null : s.ledger.index.ids[newest] };
  summaries.set(items, summary);
  return summary;
}

/** The active chain's work items now (`getWork`), with the summary `openSession` would give of them. */
export function workItems(s: OpenSession): WorkItems {
  const ix = s.ledger.index;
  const items = activeWork(s, ix.count > 0 ? chainToRoot(ix, ix.activeLeaf) : []);
  return { key: s.key, work: workSummary(s, items), items: [...items] };
}

/** An opened session's figures for the UI. */
export function sessionInfo(s: OpenSession, summary: SessionSummary, library: SessionLibrary): SessionInfo {
  const { ledger, layout } = s;
  const ix = ledger.index;
  const warningCount = ledger.warningsSoFar().length;
  const branchPoints = ix.branchPoints().length;
  const activeChain = ix.count > 0 ? chainToRoot(ix, ix.activeLeaf) : [];
  return {
    key: s.key,
    summary,
    header: headerInfo(s),
    entryCount: ix.count,
    activeLeaf: ix.count > 0 ? ix.ids[ix.activeLeaf] : null,
    warningCount,
    branchPoints,
    leaves: ix.leaves().length,
    rowCount: layout.rowCount(false),
    foldedRowCount: layout.rowCount(true),
    laneCount: layout.laneCount,
    usage: { activeChain: usageTotals(ledger, activeChain), allBranches: usageTotals(ledger, 'all') },
    work: workSummary(s, activeWork(s, activeChain)),
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
  return { bytesRead: s.ledger.bytesRead, bytesTotal: Math.max(s.ledger.bytesRead, s.ledger.source.size()) };
}
