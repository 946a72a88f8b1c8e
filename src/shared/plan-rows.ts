import type { PlanRow, TurnFidelity } from './ledger-types';

/**
 * A projection's plan (§9 `plan`: one row per closed turn, in chain order) read a row at a time.
 * A leaf view reads its counts, its strip and a window of rows, so a plan of tens of thousands of
 * turns is kept as numbers and makes a row object only for the rows asked.
 */
export interface PlanRows {
  readonly length: number;
  turnId(k: number): string;
  fidelity(k: number): TurnFidelity;
  tokens(k: number): number;
  /** Row k as §9's `plan` writes it. */
  row(k: number): PlanRow;
}

/** Rows already made (a projection's `plan`) as PlanRows. */
export function planRowsOf(rows: readonly PlanRow[]): PlanRows {
  return {
    length: rows.length,
    turnId: (k) => rows[k].turn_id,
    fidelity: (k) => rows[k].fidelity,
    tokens: (k) => rows[k].tokens,
    row: (k) => rows[k],
  };
}

/** Every row, made now (a whole projection: the CLI, an export). */
export function allPlanRows(rows: PlanRows): PlanRow[] {
  return Array.from({ length: rows.length }, (_, k) => rows.row(k));
}
