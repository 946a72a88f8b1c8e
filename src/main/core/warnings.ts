import { WARNING_CODES, type LedgerWarning, type WarningCode } from '../../shared/ledger-types';

export { WARNING_CODES, type LedgerWarning, type WarningCode };

const RANK = new Map<WarningCode, number>(WARNING_CODES.map((c, i) => [c, i]));

/** Sort warnings into file order, and within a line into the §8 table's order. */
export function sortWarnings(ws: LedgerWarning[]): LedgerWarning[] {
  return ws.sort((a, b) => a.line - b.line || RANK.get(a.code)! - RANK.get(b.code)!);
}
