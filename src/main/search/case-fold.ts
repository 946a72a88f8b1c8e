/**
 * How search compares text: both sides in Unicode normal form C, lowercased (the
 * locale-independent `toLowerCase`), final sigma as sigma — so `naïve`, `Naïve` and
 * `NAÏVE` are one word whether the file holds "ï" or "i" + U+0308. Also what the byte
 * prefilter may rely on: which characters of a folded query appear in a file's bytes
 * only as a known set of UTF-8 spellings (`anchorOf`).
 */

/** The searchable form of `s`. */
export function fold(s: string): string {
  return s.normalize('NFC').toLowerCase().replace(/ς/g, 'σ');
}

/**
 * `s` in normal form C and its folded form, with, for each UTF-16 offset of the folded
 * form, the offset in the NFC text it came from (and one past the end): a match found in
 * the folded text is marked on the text as the user reads it.
 */
export function foldMapped(s: string): { text: string; folded: string; origin: number[] } {
  const text = s.normalize('NFC');
  let folded = '';
  const origin: number[] = [];
  for (let k = 0; k < text.length;) {
    const cp = text.codePointAt(k) as number;
    const ch = String.fromCodePoint(cp);
    const f = ch === 'ς' ? 'σ' : ch.toLowerCase();
    for (let j = 0; j < f.length; j++) origin.push(k);
    folded += f;
    k += ch.length;
  }
  origin.push(text.length);
  return { text, folded, origin };
}

/** One character folded (`fold` for a single code point, without the string-wide work). */
function foldChar(ch: string): string {
  const l = ch.normalize('NFC').toLowerCase();
  return l === 'ς' ? 'σ' : l;
}

interface FoldTables {
  /** Folded code point → the other code points whose NFC form folds to it, or whose fold starts with it ("İ" → "i̇"). */
  exact: Map<string, string[]>;
  /** Folded code point → the code points with a canonical decomposition whose first character folds to it. */
  byBase: Map<string, string[]>;
  /** Folds of one code point that are several code points. */
  multi: string[][];
}

/** Cased scripts all lie below U+20000; past it no character folds to another. */
const LAST_CASED = 0x1ffff;
let tables: FoldTables | null = null;

function push(m: Map<string, string[]>, k: string, v: string): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/** Built once, on the first search: only the code points that fold or decompose are kept. */
function foldTables(): FoldTables {
  if (tables) return tables;
  const exact = new Map<string, string[]>();
  const byBase = new Map<string, string[]>();
  const multi: string[][] = [];
  for (let cp = 0; cp <= LAST_CASED; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    const f = foldChar(ch);
    if (f !== ch) {
      const chars = [...f];
      push(exact, chars[0], ch);
      if (chars.length > 1) multi.push(chars);
    }
    const d = ch.normalize('NFD');
    if (d !== ch) push(byBase, foldChar(String.fromCodePoint(d.codePointAt(0) as number)), ch);
  }
  tables = { exact, byBase, multi };
  return tables;
}

/**
 * Characters JSON may write escaped (`"`, `\`, `/` as `\/`, controls) and combining marks
 * (a file may order or compose them otherwise): never looked for as bytes.
 */
function spelledAsBytes(c: string): boolean {
  const cp = c.codePointAt(0) as number;
  if (cp < 0x20 || c === '"' || c === '\\' || c === '/') return false;
  return !/\p{M}/u.test(c);
}

/** Whether a multi-code-point fold, placed over `q` with its second or later character at `j`, agrees with `q` where they overlap. */
function multiFoldCovers(q: string[], j: number, multi: string[][]): boolean {
  for (const f of multi) {
    for (let p = j - f.length + 1; p < j; p++) {
      let agrees = true;
      for (let o = 0; o < f.length && agrees; o++) {
        const at = p + o;
        if (at >= 0 && at < q.length && q[at] !== f[o]) agrees = false;
      }
      if (agrees) return true;
    }
  }
  return false;
}

/** One character of an anchor: its spellings in a file, and whether combining marks may follow them. */
export interface AnchorChar {
  spellings: string[];
  marksFollow: boolean;
}

/**
 * The longest run of the folded query that any line matching it holds in its bytes,
 * character by character as one of `spellings` (a character with a canonical
 * decomposition: as any character starting with its base, then combining marks) —
 * unless the line writes it with a `\u` escape (the scanner's concern). Empty when no
 * character of the query can be looked for so: then every line is a candidate.
 */
export function anchorOf(foldedQuery: string): AnchorChar[] {
  const t = foldTables();
  const q = [...foldedQuery];
  const ok = q.map((c, j) => spelledAsBytes(c) && !multiFoldCovers(q, j, t.multi));
  let best: [number, number] = [0, 0];
  for (let j = 0; j < q.length;) {
    if (!ok[j]) {
      j++;
      continue;
    }
    let e = j;
    while (e < q.length && ok[e]) e++;
    if (e - j > best[1] - best[0]) best = [j, e];
    j = e;
  }
  return q.slice(best[0], best[1]).map((c) => {
    const d = c.normalize('NFD');
    if (d === c) return { spellings: [c, ...(t.exact.get(c) ?? [])], marksFollow: false };
    const base = foldChar(String.fromCodePoint(d.codePointAt(0) as number));
    const spellings = [base, ...(t.exact.get(base) ?? []), ...(t.byBase.get(base) ?? [])];
    return { spellings: [...new Set(spellings)], marksFollow: true };
  });
}
