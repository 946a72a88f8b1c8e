import type { ChildRunLink, HeaderInfo, SessionInfo, SessionSummary } from '../../shared/api';
import { chainToRoot } from '../core/chain';
import { isObject } from '../core/entry-types';
import { KIND } from '../core/ledger-index';
import { usageTotals } from '../core/usage';
import { foldWork } from '../core/work-fold';
import type { SessionLibrary } from '../library/session-library';
import type { OpenSession } from '../library/session-cache';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The header's fields the UI shows, or null without a header on line 1. */
export function headerInfo(s: OpenSession): HeaderInfo | null {
  const ix = s.ledger.index;
  if (ix.header < 0) return null;
  const h = s.ledger.entry(ix.header);
  return {
    sessionId: str(h['session_id']),
    model: str(h['model']),
    provider: str(h['provider']),
    cwd: str(h['cwd']),
    appVersion: str(h['app_version']),
    permissionMode: str(h['permission_mode']),
  };
}

/** Every `child_run` entry, linked to its child session's key when the library has it. */
export function childRuns(s: OpenSession, library: SessionLibrary): ChildRunLink[] {
  const ix = s.ledger.index;
  const out: ChildRunLink[] = [];
  for (let i = 0; i < ix.count; i++) {
    if (ix.kind[i] !== KIND.child_run) continue;
    const c = s.ledger.entry(i)['child_run'];
    if (!isObject(c) || typeof c['child_session_id'] !== 'string') continue;
    const agent = str(c['agent']) ?? '';
    out.push({
      entryId: ix.ids[i],
      childSessionId: c['child_session_id'],
      agent,
      outcome: str(c['outcome']) ?? '',
      key: library.keyOf(c['child_session_id'], agent || undefined),
    });
  }
  return out;
}

/** An opened session's figures for the UI. */
export function sessionInfo(s: OpenSession, summary: SessionSummary, library: SessionLibrary): SessionInfo {
  const { ledger, layout } = s;
  const ix = ledger.index;
  const warningCount = ledger.warnings().length;
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
    work: foldWork(ledger, activeChain),
    childRuns: childRuns(s, library),
    appendOnlyBreaks: [...ledger.appendOnlyBreaks],
  };
}
