import { WARNING_CODES, type LedgerWarning, type WarningCode } from '../../shared/ledger-types';

export { WARNING_CODES, type LedgerWarning, type WarningCode };

/** Sort warnings into file order, and within a line into the §8 table's order. */
export function sortWarnings(ws: LedgerWarning[]): LedgerWarning[] {
  return ws.sort((a, b) => a.line - b.line || WARNING_CODES.indexOf(a.code) - WARNING_CODES.indexOf(b.code));
}
