import type { TreeRow, TreeRowsResult } from '../../shared/api';
import { entryPreview } from '../core/entry-preview';
import { ORPHAN } from '../core/ledger-index';
import type { OpenSession } from '../library/session-cache';
import { PerReading } from '../core/per-reading';

/** Lines that carry a reader warning, per reading, recomputed when the session changes (appends add warnings). */
const warningLineCache = new PerReading<{ revision: number; lines: Set<number> }>('warning lines');

/** The set of 1-based line numbers with a §8 warning. */
function warningLines(s: OpenSession): Set<number> {
  const c = warningLineCache.get(s.ledger);
  if (c && c.revision === s.revision) return c.lines;
  const lines = new Set(s.ledger.warningsSoFar().map((w) => w.line));
  warningLineCache.set(s.ledger, { revision: s.revision, lines });
  return lines;
}

/** A window of drawn tree rows: entries (or folded audit runs) with their lanes and one line of text. */
export function treeRows(s: OpenSession, start: number, count: number, foldAudit: boolean): TreeRowsResult {
  const { ledger, layout } = s;
  const ix = ledger.index;
  const warned = warningLines(s);
  const active = ix.activeLeaf;
  const rows: TreeRow[] = layout.rows(start, count, foldAudit).map((r) => {
    const a = r.index;
    const b = r.lastIndex;
    const e = ledger.entry(a);
    const kind = ix.kindName(a);
    const preview = entryPreview(e);
    let hasWarning = false;
    for (let j = a; j <= b && !hasWarning; j++) hasWarning = warned.has(ix.line[j]);
    const text = r.folded ? `${r.folded.count} audit entries: ${r.folded.kinds.join(', ')}` : preview.text;
    return {
      row: r.row,
      index: a,
      id: ix.ids[a],
      parentId: ix.parentId(a),
      kind,
      role: preview.role,
      control: preview.control,
      line: ix.line[a],
      ts: e.ts,
      text,
      children: ix.childCount[b],
      isBranchPoint: ix.childCount[b] > 1,
      isLeaf: ix.childCount[b] === 0,
      isActiveLeaf: a <= active && active <= b,
      isOrphan: ix.parent[a] === ORPHAN,
      hasWarning,
      lane: r.lane,
      through: r.through,
      forkFrom: r.forkFrom,
      forkTo: r.forkTo,
      folded: r.folded,
    };
  });
  return { total: layout.rowCount(foldAudit), laneCount: layout.laneCount, rows };
}

/**
 * The page of `count` rows, from a multiple of `count`, holding the active leaf's row
 * (`getTreeRows` with `holding`): the page the tree opens on, asked before the open tells the row.
 * While a first read is under way the active leaf is not the file's yet: the first page.
 */
export function activeLeafPage(s: OpenSession, count: number, foldAudit: boolean): TreeRowsResult {
  const ix = s.ledger.index;
  const row = s.reading || ix.count === 0 ? 0 : s.layout.findRow(ix.activeLeaf, foldAudit);
  const start = count > 0 ? Math.floor(row / count) * count : row;
  return { ...treeRows(s, start, count, foldAudit), start };
}
