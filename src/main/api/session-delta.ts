import { MAX_DELTA_ROWS, type SessionDelta } from '../../shared/api';
import type { OpenSession } from '../library/session-cache';
import { chainToRoot } from '../core/chain';
import { KIND } from '../core/ledger-index';
import { plusTotals, usageTotals } from '../core/usage';
import { PerReading } from '../core/per-reading';
import { activeWork, workSummary } from './session-info';
import { treeRows } from './tree-rows';

/** The usage totals after the last delta of an index (and its entry count then): the next one adds to them. */
const usageKnown = new PerReading<{ count: number; usage: SessionDelta['usage'] }>('usage so far');

/**
 * The usage totals after entries `firstNew …` came: when the last delta was of the entries just
 * before, its all-branches total plus theirs, and its active chain's plus `newOnChain` (the new
 * entries on the active chain) when they extend the chain it summed; otherwise summed again whole.
 * A first read's steps then cost what they read, not the whole session each (a 1 GB file read in
 * 4 MiB steps summed ~250 times; the active chain of a branching session is often not extended by
 * a step: summed again, in code still cold then).
 */
function usageAfter(
  s: OpenSession,
  firstNew: number,
  newOnChain: number[] | null,
  activeChain: () => Int32Array,
): SessionDelta['usage'] {
  const ix = s.ledger.index;
  const known = usageKnown.get(s.ledger);
  const follows = known !== undefined && known.count === firstNew;
  let allBranches: SessionDelta['usage']['allBranches'];
  if (follows) {
    const added: number[] = [];
    for (let i = firstNew; i < ix.count; i++) added.push(i);
    allBranches = plusTotals(known.usage.allBranches, usageTotals(s.ledger, added));
  } else allBranches = usageTotals(s.ledger, 'all');
  const usage = {
    activeChain:
      follows && newOnChain !== null
        ? plusTotals(known.usage.activeChain, usageTotals(s.ledger, newOnChain))
        : usageTotals(s.ledger, activeChain()),
    allBranches,
  };
  usageKnown.set(s.ledger, { count: ix.count, usage });
  return usage;
}

/** The leaf count after the last delta of an index (its entry count then): the next one adds to it. */
const leavesKnown = new PerReading<{ count: number; leaves: number }>('leaf count');

/**
 * What an append of entries `firstNew … count-1` changed in a session's tree, so a follower
 * patches its caches instead of opening the session again. The layout only places
 * new entries, so old rows keep their lanes; what changes in them is drawn again from
 * `redraw`: the parent of a new entry (its children and forks), every row a new line passes
 * through on its way down from that parent, and the former active leaf. Past MAX_DELTA_ROWS new
 * entries it carries counts only; a `step` of a first read carries no rows and no work (its rows
 * are read when shown, and its end brings the whole figures).
 */
export function sessionDelta(s: OpenSession, firstNew: number, step = false): SessionDelta {
  const maxRows = step ? 0 : MAX_DELTA_ROWS;
  const ix = s.ledger.index;
  const layout = s.layout;
  const count = ix.count;
  const newEntries = count - firstNew;
  // Old parents of new entries, with how many new children each got.
  const newChildren = new Map<number, number>();
  for (let i = firstNew; i < count; i++) {
    const p = ix.parent[i];
    if (p >= 0 && p < firstNew) newChildren.set(p, (newChildren.get(p) ?? 0) + 1);
  }
  let redrawFrom = firstNew > 0 ? firstNew - 1 : 0; // the former active leaf
  for (const p of newChildren.keys()) redrawFrom = Math.min(redrawFrom, p);
  // Leaves counted, named only for an append (a step of a first read may bring thousands).
  const endedLeaves: string[] = [];
  let ended = 0;
  for (const [p, n] of newChildren) {
    if (ix.childCount[p] !== n) continue;
    ended++;
    if (!step) endedLeaves.push(ix.ids[p]);
  }
  const addedLeaves: string[] = [];
  let added = 0;
  for (let i = firstNew; i < count; i++) {
    if (ix.childCount[i] !== 0) continue;
    added++;
    if (!step) addedLeaves.push(ix.ids[i]);
  }
  const before = leavesKnown.get(s.ledger);
  const leafCount =
    before !== undefined && before.count === firstNew ? before.leaves + added - ended : ix.leaves().length;
  leavesKnown.set(s.ledger, { count, leaves: leafCount });

  const rowCount = layout.rowCount(false);
  const foldedRowCount = layout.rowCount(true);
  const foldedFirstRow = firstNew < count ? layout.findRow(firstNew, true) : foldedRowCount;
  const small = newEntries <= maxRows;
  const redrawFoldedFrom = firstNew > 0 ? layout.findRow(redrawFrom, true) : 0;
  return {
    firstNewIndex: firstNew,
    newEntries,
    rowCount,
    foldedRowCount,
    laneCount: layout.laneCount,
    rows: small ? treeRows(s, firstNew, newEntries, false).rows : null,
    foldedRows: small ? treeRows(s, foldedFirstRow, foldedRowCount - foldedFirstRow, true).rows : null,
    foldedFirstRow,
    redraw: { start: Math.min(redrawFrom, firstNew), end: firstNew },
    redrawFolded: { start: Math.min(redrawFoldedFrom, foldedFirstRow), end: foldedFirstRow },
    addedLeaves,
    endedLeaves,
    leafCount,
    warningCount: s.ledger.warningsSoFar().length,
    ...changedCounts(s, firstNew, newChildren, step),
  };
}

/**
 * The session's figures an append changes besides its rows: branch points (counted from the
 * parents that got children), the usage totals, and the work items — folded again only when a
 * work entry came or the active chain is no longer the former one extended.
 */
function changedCounts(
  s: OpenSession,
  firstNew: number,
  newChildren: ReadonlyMap<number, number>,
  step: boolean,
): Pick<SessionDelta, 'branchPointsAdded' | 'usage' | 'work'> {
  const ix = s.ledger.index;
  const count = ix.count;
  let branchPointsAdded = 0;
  for (const [p, n] of newChildren) if (ix.childCount[p] > 1 && ix.childCount[p] - n <= 1) branchPointsAdded++;
  let workCame = false;
  for (let i = firstNew; i < count; i++) {
    if (ix.childCount[i] > 1) branchPointsAdded++;
    if (ix.kind[i] === KIND.work) workCame = true;
  }
  // The former active leaf (the newest entry before these) is on the new active chain unless the
  // append forked: the new chain is the former one plus the new entries walked here.
  const newOnChain: number[] = [];
  let i = count > 0 ? ix.activeLeaf : -1;
  while (i >= firstNew) {
    newOnChain.push(i);
    i = ix.parent[i];
  }
  const extended = firstNew === 0 || i === firstNew - 1;
  let activeChain: Int32Array | null = null;
  const chain = (): Int32Array => (activeChain ??= count > 0 ? chainToRoot(ix, ix.activeLeaf) : new Int32Array(0));
  const usage = usageAfter(s, firstNew, extended && firstNew > 0 ? newOnChain : null, chain);
  return {
    branchPointsAdded,
    usage,
    // A step of a first read leaves the work to the whole session's figures at its end.
    work: !step && (workCame || !extended) ? workSummary(s, activeWork(s, chain())) : null,
  };
}
