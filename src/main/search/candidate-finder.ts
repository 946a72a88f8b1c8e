/**
 * Where, in a chunk of a ledger's bytes, the next line that may match a query is: what any
 * matching line must hold in its bytes (the query's anchor, case-fold.ts), or a `\u` escape
 * (JSON may write any character so; such a line is decoded). Only lines found here are
 * decoded and matched (text-match.ts), so a finder may report lines that do not match, never
 * skip one that does.
 *
 * Two ways, one contract. The fast one looks for a run of the anchor whose every character
 * has one spelling once ASCII case is masked off (bit 0x20 of every byte cleared, the chunk
 * and the needle alike), with `Buffer.indexOf` over the raw bytes: a rare phrase is found at
 * memory speed, and each place it is found is checked against the whole anchor in a window
 * around it. Queries with no such run of a few bytes (mostly non-ASCII letters, or `i`/`k`,
 * which have spellings of other lengths) go through a regular expression over the chunk
 * read as Latin-1, one character per byte so offsets stay byte offsets.
 */
import type { AnchorChar } from './case-fold';
import type { PreparedQuery } from './text-match';

/** A masked run shorter than this is found too often to beat the regular expression. */
const MIN_NEEDLE = 4;
const CASE_BIT_OFF = 0xdf;
/** Four bytes' worth, as a signed 32-bit integer: the loop stays on small integers (no heap numbers). */
const CASE_BITS_OFF = 0xdfdfdfdf | 0;
const NL = 10;
/** `\u` as bytes: a Buffer needle is searched without decoding the chunk as text. */
const ESCAPE_BYTES = Buffer.from('\\u', 'latin1');

/** A `\u` escape that may spell a printable character (one of `\u0000`–`\u001f` never does). */
const ESCAPE = String.raw`\\u(?!00[01])`;

/** A UTF-8 string as the Latin-1 text its bytes read as, escaped for a regular expression. */
function latin1Pattern(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
  return out;
}

/** The anchor as a pattern over Latin-1 text (no escape alternative). */
function anchorPattern(anchor: AnchorChar[]): string {
  return anchor
    .map((c) => `(?:${c.spellings.map(latin1Pattern).join('|')})${c.marksFollow ? '[\\x80-\\xff]*' : ''}`)
    .join('');
}

/**
 * The pattern, over a chunk read as Latin-1, of what a line that may match holds: the
 * query's anchor in one of its spellings, or a `\u` escape. Null when the anchor is empty:
 * every line is a candidate.
 */
export function candidatePattern(q: PreparedQuery): RegExp | null {
  if (q.anchor.length === 0) return null;
  return new RegExp(`${anchorPattern(q.anchor)}|${ESCAPE}`, 'g');
}

const masked = (bytes: Buffer): Buffer => Buffer.from(bytes.map((b) => b & CASE_BIT_OFF));

/** A character's one byte spelling once case is masked off, or null when it has several (or marks may follow). */
function maskedSpelling(c: AnchorChar): Buffer | null {
  if (c.marksFollow) return null;
  let one: Buffer | null = null;
  for (const s of c.spellings) {
    const m = masked(Buffer.from(s, 'utf8'));
    if (one === null) one = m;
    else if (!one.equals(m)) return null;
  }
  return one;
}

/** What the fast finder looks for: a masked run of the anchor, and how far the rest of the anchor reaches around it. */
export interface MaskedNeedle {
  bytes: Buffer;
  /** Bytes the anchor's characters before the run may take at most. */
  before: number;
  /** Bytes the anchor's characters after the run may take at most. */
  after: number;
  /** The whole anchor, checked where the run is found. */
  verify: RegExp;
  /** Combining marks may follow some character: checked over the whole line. */
  wholeLine: boolean;
}

/** The longest run of the anchor with one masked spelling per character, or null when it is too short. */
export function maskedNeedle(q: PreparedQuery): MaskedNeedle | null {
  const a = q.anchor;
  if (a.length === 0) return null;
  const spelled = a.map(maskedSpelling);
  let best: [number, number, number] = [0, 0, 0]; // start, end, bytes
  for (let j = 0; j < a.length;) {
    if (spelled[j] === null) {
      j++;
      continue;
    }
    let e = j;
    let n = 0;
    while (e < a.length && spelled[e] !== null) n += (spelled[e++] as Buffer).length;
    if (n > best[2]) best = [j, e, n];
    j = e;
  }
  if (best[2] < MIN_NEEDLE) return null;
  const widest = (c: AnchorChar): number => Math.max(...c.spellings.map((s) => Buffer.byteLength(s, 'utf8')));
  const sum = (cs: AnchorChar[]): number => cs.reduce((n, c) => n + widest(c), 0);
  return {
    bytes: Buffer.concat(spelled.slice(best[0], best[1]) as Buffer[]),
    before: sum(a.slice(0, best[0])),
    after: sum(a.slice(best[1])),
    verify: new RegExp(anchorPattern(a)),
    wholeLine: a.some((c) => c.marksFollow),
  };
}

/** `dst[0..n)` = `src[0..n)` with bit 0x20 of every byte cleared (four bytes at a time where aligned). */
function maskInto(src: Buffer, n: number, dst: Buffer): void {
  let k = 0;
  if (src.byteOffset % 4 === 0 && dst.byteOffset % 4 === 0) {
    const words = n >>> 2;
    const s = new Int32Array(src.buffer, src.byteOffset, words);
    const d = new Int32Array(dst.buffer, dst.byteOffset, words);
    for (let i = 0; i < words; i++) d[i] = s[i] & CASE_BITS_OFF;
    k = words << 2;
  }
  for (; k < n; k++) dst[k] = src[k] & CASE_BIT_OFF;
}

/** Reused between chunks: the masked copy of the chunk being searched. */
let maskBuf: Buffer = Buffer.alloc(0);

/** Whether the `\u` at `k` may spell a printable character (`\u0000`–`\u001f` never does). */
function printableEscape(buf: Buffer, k: number): boolean {
  return !(buf[k + 2] === 0x30 && buf[k + 3] === 0x30 && (buf[k + 4] === 0x30 || buf[k + 4] === 0x31));
}

export type Finder = (from: number) => number;

/**
 * `find` asked again only when needed: its answer for `from` stands for every later `from`
 * up to it (nothing lies between), so a chunk is searched once however many lines are decoded.
 */
function remembered(find: Finder): Finder {
  let asked = -1;
  let at = -1;
  return (from) => {
    if (asked < 0 || from < asked || (at >= 0 && at < from)) {
      asked = from;
      at = find(from);
    }
    return at;
  };
}

/** The fast finder over `buf[0..end)`: the needle where the whole anchor is around it, or an escape. */
function needleFinder(buf: Buffer, end: number, needle: MaskedNeedle): Finder {
  if (maskBuf.length < end) maskBuf = Buffer.alloc(Math.max(end, maskBuf.length * 2));
  maskInto(buf, end, maskBuf);
  const hay = maskBuf.subarray(0, end);
  const raw = buf.subarray(0, end);
  const verified = (k: number): boolean => {
    let from = k - needle.before;
    let to = k + needle.bytes.length + needle.after;
    if (needle.wholeLine) {
      from = raw.lastIndexOf(NL, k) + 1;
      const e = raw.indexOf(NL, k);
      to = e < 0 ? end : e;
    }
    return needle.verify.test(raw.toString('latin1', Math.max(0, from), Math.min(end, to)));
  };
  const nextEscape = remembered((from) => {
    for (let k = raw.indexOf(ESCAPE_BYTES, from); k >= 0; k = raw.indexOf(ESCAPE_BYTES, k + 1)) {
      if (printableEscape(raw, k)) return k;
    }
    return -1;
  });
  const nextNeedle = remembered((from) => {
    for (let k = hay.indexOf(needle.bytes, from); k >= 0; k = hay.indexOf(needle.bytes, k + 1)) {
      if (verified(k)) return k;
    }
    return -1;
  });
  return (from) => {
    const e = nextEscape(from);
    const n = nextNeedle(from);
    return e < 0 ? n : n < 0 ? e : Math.min(e, n);
  };
}

/** Where in a chunk (up to `end`), from a byte offset, the next line that may match has its anchor, or -1. */
export function candidateFinder(buf: Buffer, end: number, needle: MaskedNeedle | null, pattern: RegExp | null): Finder {
  if (needle !== null) return needleFinder(buf, end, needle);
  if (pattern === null) {
    return (from) => {
      while (from < end && buf[from] === NL) from++;
      return from < end ? from : -1;
    };
  }
  const text = buf.toString('latin1', 0, end);
  return (from) => {
    pattern.lastIndex = from;
    const m = pattern.exec(text);
    return m ? m.index : -1;
  };
}
