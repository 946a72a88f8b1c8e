import type { Ledger } from './ledger';
import type { TreeReport, VerifyReport } from '../../shared/ledger-types';

export type { TreeReport, VerifyReport };

export function verifyReport(ledger: Ledger): VerifyReport {
  const ix = ledger.index;
  return {
    entries: ix.count,
    warnings: ledger.warnings(),
    active_leaf: ix.count > 0 ? ix.ids[ix.activeLeaf] : null,
  };
}

export function treeReport(ledger: Ledger): TreeReport {
  const ix = ledger.index;
  const entries: TreeReport['entries'] = [];
  for (let i = 0; i < ix.count; i++) {
    entries.push({
      id: ix.ids[i],
      parent_id: ix.parentId(i),
      kind: ix.kindName(i),
      line: ix.line[i],
      children: ix.childCount[i],
    });
  }
  return {
    entries,
    branch_points: ix.branchPoints().map((i) => ix.ids[i]),
    leaves: ix.leaves().map((i) => ix.ids[i]),
  };
}
