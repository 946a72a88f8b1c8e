import type { DiffOp } from '../util/line-diff';

/** Unchanged lines kept on each side of a change. */
export const DIFF_CONTEXT = 3;

/** A row of the diff as drawn: a line, or a run of unchanged lines folded into one row. */
export type DiffRow =
  | {
      kind: 'line';
      op: DiffOp['op'];
      text: string;
      /** Index of the change this line belongs to. */ change: number | null;
    }
  | { kind: 'fold'; /** First op of the run (its key: unfolding remembers it). */ start: number; count: number };

export interface DiffLayout {
  rows: DiffRow[];
  /** Row index where each change (a run of added/removed lines) starts, in order. */
  changeRows: number[];
  added: number;
  removed: number;
}

/**
 * Lays out a line diff for reading: every change with DIFF_CONTEXT unchanged lines around it,
 * longer unchanged runs folded into one "N unchanged lines" row unless `unfolded` holds the run's start.
 */
export function layoutDiff(ops: readonly DiffOp[], unfolded: ReadonlySet<number> = new Set()): DiffLayout {
  const rows: DiffRow[] = [];
  const changeRows: number[] = [];
  let added = 0;
  let removed = 0;
  let i = 0;
  while (i < ops.length) {
    if (ops[i].op !== 'same') {
      changeRows.push(rows.length);
      const change = changeRows.length - 1;
      while (i < ops.length && ops[i].op !== 'same') {
        const o = ops[i];
        if (o.op === 'add') added++;
        else removed++;
        rows.push({ kind: 'line', op: o.op, text: o.text, change });
        i++;
      }
      continue;
    }
    let end = i;
    while (end < ops.length && ops[end].op === 'same') end++;
    // Keep context after the previous change and before the next one.
    const keepHead = i === 0 ? 0 : DIFF_CONTEXT;
    const keepTail = end === ops.length ? 0 : DIFF_CONTEXT;
    const hidden = end - i - keepHead - keepTail;
    if (hidden <= 1 || unfolded.has(i)) {
      for (let k = i; k < end; k++) rows.push({ kind: 'line', op: 'same', text: ops[k].text, change: null });
    } else {
      for (let k = i; k < i + keepHead; k++) rows.push({ kind: 'line', op: 'same', text: ops[k].text, change: null });
      rows.push({ kind: 'fold', start: i, count: hidden });
      for (let k = end - keepTail; k < end; k++)
        rows.push({ kind: 'line', op: 'same', text: ops[k].text, change: null });
    }
    i = end;
  }
  return { rows, changeRows, added, removed };
}
