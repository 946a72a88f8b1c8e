/**
 * A small fuzzy matcher for the palette: the query's characters must appear in the text in
 * order (case aside); an alignment scores more when its characters start words, follow each
 * other, and come early. The best alignment is found by dynamic programming over the text
 * (titles are short), so "ss" in "Set profile: reserve" picks the two word starts it can.
 */

export interface FuzzyMatch {
  score: number;
  /** Positions in the text of the query's characters (for marking them). */
  positions: number[];
}

const WORD_START = 8;
const CONSECUTIVE = 8;
const FIRST_CHAR = 4;
/** A gap between two matched characters costs this much, plus GAP_EACH per skipped character. */
const GAP_OPEN = 3;
const GAP_EACH = 0.5;
/** Each character before the first match costs this much. */
const LEAD = 0.1;
const NONE = -Infinity;

const isAlnum = (c: string): boolean => /[\p{L}\p{N}]/u.test(c);

/** Bonus for matching at `i`: a word's first character, or a capital inside camelCase. */
function startBonus(text: string, i: number): number {
  if (i === 0) return WORD_START + FIRST_CHAR;
  const prev = text[i - 1];
  const cur = text[i];
  if (!isAlnum(prev) && isAlnum(cur)) return WORD_START;
  if (prev.toLowerCase() === prev && cur.toUpperCase() === cur && cur.toLowerCase() !== cur) return WORD_START;
  return 0;
}

/** The best alignment of `query` in `text`, or null when its characters are not all there in order. */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | null {
  const q = query.toLowerCase().replace(/\s+/g, '');
  if (q.length === 0) return { score: 0, positions: [] };
  const t = text.toLowerCase();
  if (t.length !== text.length) return null; // lowercasing changed lengths: positions would not hold
  const n = t.length;
  const m = q.length;
  if (m > n) return null;
  // best[j][i]: best score with q[j] at t[i]; from[j][i]: where q[j-1] was. A gap's cost grows
  // with its length, so the best earlier k is kept as a running maximum of prev[k] + k·GAP_EACH:
  // O(m·n) in all.
  const best: Float64Array[] = [];
  const from: Int32Array[] = [];
  for (let j = 0; j < m; j++) {
    const row = new Float64Array(n).fill(NONE);
    const back = new Int32Array(n).fill(-1);
    const prev = j > 0 ? best[j - 1] : null;
    let gapTop = NONE; // max over k ≤ i-2 of prev[k] + k·GAP_EACH
    let gapAt = -1;
    for (let i = j; i < n; i++) {
      if (prev && i >= 2 && prev[i - 2] !== NONE && prev[i - 2] + (i - 2) * GAP_EACH > gapTop) {
        gapTop = prev[i - 2] + (i - 2) * GAP_EACH;
        gapAt = i - 2;
      }
      if (t[i] !== q[j]) continue;
      const bonus = 1 + startBonus(text, i);
      if (!prev) {
        row[i] = bonus - i * LEAD;
        continue;
      }
      const run = prev[i - 1] === NONE ? NONE : prev[i - 1] + CONSECUTIVE;
      const gap = gapAt < 0 ? NONE : gapTop - GAP_OPEN - (i - 1) * GAP_EACH;
      if (run === NONE && gap === NONE) continue;
      if (run >= gap) {
        row[i] = run + bonus;
        back[i] = i - 1;
      } else {
        row[i] = gap + bonus;
        back[i] = gapAt;
      }
    }
    best.push(row);
    from.push(back);
  }
  let end = -1;
  let score = NONE;
  for (let i = 0; i < n; i++) {
    if (best[m - 1][i] > score) {
      score = best[m - 1][i];
      end = i;
    }
  }
  if (end < 0) return null;
  const positions = new Array<number>(m);
  for (let j = m - 1, i = end; j >= 0; j--) {
    positions[j] = i;
    i = from[j][i];
  }
  // Shorter texts win ties: "Search" over "Search within the open session" for "search".
  return { score: score - n * 0.01, positions };
}

/** Items ranked by their match of `query` (non-matching dropped; equal scores keep their order). */
export function rankFuzzy<T>(
  query: string,
  items: readonly T[],
  text: (item: T) => string,
): { item: T; match: FuzzyMatch }[] {
  const out: { item: T; match: FuzzyMatch; k: number }[] = [];
  items.forEach((item, k) => {
    const match = fuzzyMatch(query, text(item));
    if (match) out.push({ item, match, k });
  });
  out.sort((a, b) => b.match.score - a.match.score || a.k - b.k);
  return out.map(({ item, match }) => ({ item, match }));
}
