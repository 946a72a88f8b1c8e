/**
 * The results as the list draws them: a heading row per session, then one row per hit,
 * then a "more…" row while the search has more to give. Hits are numbered across
 * sessions: ↑/↓ move by hit, headings are skipped.
 */
import type { SearchHit, SearchSessionHits } from '../../shared/api-features';

export type ResultRow =
  | { type: 'session'; group: SearchSessionHits }
  | { type: 'hit'; group: SearchSessionHits; hit: SearchHit; n: number }
  | { type: 'more' };

/** Row heights in pixels: fixed, so the virtualizer needs no measuring. */
export const ROW_PX: Record<ResultRow['type'], number> = { session: 46, hit: 56, more: 34 };

export interface ResultRows {
  rows: ResultRow[];
  /** Row index of each hit, by hit number. */
  hitRow: number[];
}

export function resultRows(groups: readonly SearchSessionHits[], more: boolean): ResultRows {
  const rows: ResultRow[] = [];
  const hitRow: number[] = [];
  for (const group of groups) {
    rows.push({ type: 'session', group });
    for (const hit of group.hits) {
      hitRow.push(rows.length);
      rows.push({ type: 'hit', group, hit, n: hitRow.length - 1 });
    }
  }
  if (more) rows.push({ type: 'more' });
  return { rows, hitRow };
}

/**
 * Where in the entry a hit is, short enough for the row: a message's `message.content[k].`
 * prefix is left out (`input.command`, `text`, `content`); the full path goes in a title.
 */
export function fieldLabel(field: string): string {
  const m = /^message\.content\[\d+\]\.(.+)$/.exec(field);
  return m ? m[1] : field;
}
