/**
 * Finds the long strings a first read only measures (json-skim.ts) in a ledger line's bytes:
 * string values at message.content[*].text and message.content[*].content, of at least `minLong`
 * raw bytes (quotes included), with the measures full-notes.ts takes of their decoded text.
 *
 * The line is tokenized as a JSON lexer does (a `"` outside a string opens one; inside, `\`
 * escapes the next byte, `"` closes it) and the path followed by its brackets and keys, byte by
 * byte between strings (short: punctuation, numbers, keys) and by `Buffer.indexOf` jumps inside
 * them (almost every byte of a big line is inside a tool result or a text).
 *
 * A long string's token is checked as JSON.parse checks it (escapes, no raw byte below 0x20), so
 * a line with one it would refuse is left whole and JSON.parse refuses it. Structure outside
 * strings is not checked here: JSON.parse checks it in the shorter text. Keys are matched by
 * their raw bytes: a key written with escapes is not followed (its strings stay in the text).
 */

/** Ints per record: the token's start and end (exclusive), then what `Measures` lists. */
export const RECORD_INTS = 5;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Key codes: what a key's raw bytes spell. */
const OTHER = 0;
const MESSAGE = 1;
const CONTENT = 2;
const TEXT = 3;

/** Which strings `findLongStrings` takes: at message.content[*].text and .content, or at .content only. */
export type SkimKeys = 'text-and-content' | 'content';

/**
 * Writes a record per long string into `records` (RECORD_INTS each: start, end, UTF-8 bytes of
 * the decoded text with a lone surrogate counted as U+FFFD's 3, its `\n`s, 1 when it ends with
 * `\n`) and returns how many, or -1 when the line is to be parsed as it is: a long string JSON
 * would refuse, a string without its closing quote, more than `maxRecords` long strings, a
 * closing bracket without its opener.
 */
export function findLongStrings(
  line: Buffer,
  minLong: number,
  records: Int32Array,
  maxRecords: number,
  keys: SkimKeys = 'text-and-content',
  known: Int32Array | null = null,
): number {
  const end = line.length;
  /** The next record of `known` not passed yet (records are in line order). */
  let next = 0;
  const highestKey = keys === 'content' ? CONTENT : TEXT; // the key codes taken: CONTENT…highestKey
  let depth = 0;
  /** How many of the levels from the top are on the path message.content[*]: 4 inside a block. */
  let path = 0;
  let key = OTHER;
  let n = 0;
  let i = 0;
  while (i < end) {
    const c = line[i];
    if (c === QUOTE) {
      const close = closingQuote(line, i);
      if (close < 0) return -1;
      let j = close + 1;
      while (j < end && isSpace(line[j])) j++;
      if (j < end && line[j] === 0x3a) {
        key = keyCode(line, i + 1, close);
        i = j + 1;
        continue;
      }
      if (path === 4 && depth === 4 && key >= CONTENT && key <= highestKey && close + 1 - i >= minLong) {
        if (n >= maxRecords) return -1;
        const r = n * RECORD_INTS;
        if (known !== null) while (next < known.length && known[next] < i) next += RECORD_INTS;
        if (known !== null && next < known.length && known[next] === i && known[next + 1] === close + 1) {
          // The same token a reading of these bytes measured (and checked as JSON.parse would).
          for (let k = 0; k < RECORD_INTS; k++) records[r + k] = known[next + k];
        } else {
          const saved = measure(line, i, close);
          if (saved < 0) return -1;
          records[r] = i;
          records[r + 1] = close + 1;
          records[r + 2] = close - i - 1 - saved;
          records[r + 3] = measured.newlines;
          records[r + 4] = measured.afterNewline === close ? 1 : 0;
        }
        n++;
      }
      i = close + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      // `{` `[`: one level down the path when it is its next step.
      if (
        path === depth &&
        ((depth === 0 && c === 0x7b) ||
          (depth === 1 && c === 0x7b && key === MESSAGE) ||
          (depth === 2 && c === 0x5b && key === CONTENT) ||
          (depth === 3 && c === 0x7b))
      )
        path++;
      key = OTHER;
      depth++;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return -1;
      if (path === depth) path--;
      key = OTHER;
      depth--;
    }
    i++;
  }
  return n;
}

/** Strings are read byte by byte this far (keys, short values), then by jumps to their quotes. */
const NEAR = 48;

/** Where the string token opening at `open` closes (its closing quote), or -1 when it does not. */
function closingQuote(line: Buffer, open: number): number {
  let j = open + 1;
  const near = Math.min(line.length, j + NEAR);
  while (j < near) {
    const c = line[j];
    if (c === QUOTE) return j;
    j += c === BACKSLASH ? 2 : 1;
  }
  // The first quote after an even run of backslashes (a run starts an escape: the byte before
  // it is no backslash, so no escape's second byte).
  for (;;) {
    const q = line.indexOf(QUOTE, j);
    if (q < 0) return -1;
    let b = q - 1;
    while (line[b] === BACKSLASH) b--;
    if (((q - 1 - b) & 1) === 0) return q;
    j = q + 1;
  }
}

/** What `measure` found (one record, no allocation per string). */
const measured = { saved: 0, newlines: 0, afterNewline: 0 };

const NO_WORDS = new Int32Array(0);

/**
 * The string token from `open` to `close` (its quotes): returns the raw bytes its escapes save
 * in UTF-8 (raw length minus decoded bytes), or -1 when JSON.parse would refuse it (an escape it
 * does not know, a raw byte below 0x20); sets `measured`. Read four bytes at a time where
 * aligned, to the next backslash or byte below 0x20 (there is one every few dozen bytes of a
 * tool result: each `\n`).
 */
function measure(line: Buffer, open: number, close: number): number {
  const from = open + 1;
  const aligned = Math.min(close, from + ((4 - ((line.byteOffset + from) & 3)) & 3));
  const words = (close - aligned) >> 2;
  const w = words > 0 ? new Int32Array(line.buffer, line.byteOffset + aligned, words) : NO_WORDS;
  const tail = aligned + (words << 2);
  measured.saved = 0;
  measured.newlines = 0;
  measured.afterNewline = -1;
  let p = from;
  while (p < aligned && p >= 0) p = step(line, p, close);
  while (p < tail && p >= 0) {
    let k = (p - aligned) >> 2;
    const before = p - aligned - (k << 2); // bytes of word k already read
    let m = escapeOrControl(w[k]) & (-1 << (before << 3));
    if (m === 0) {
      k++;
      while (k < words && (m = escapeOrControl(w[k])) === 0) k++;
      if (k === words) {
        p = tail;
        break;
      }
    }
    // (little-endian: the lowest set bit is in the first of those bytes)
    p = step(line, aligned + (k << 2) + ((31 - Math.clz32(m & -m)) >> 3), close);
  }
  while (p < close && p >= 0) p = step(line, p, close);
  return p < 0 ? -1 : measured.saved;
}

/**
 * The top bit of each byte of `x` that is a backslash or below 0x20, exactly (no carry crosses
 * a byte): `((v & 0x7f…) + 0x60…) | v` has a byte's top bit clear only where it is below 0x20,
 * `((v & 0x7f…) + 0x7f…) | v` only where it is 0 (with v = x ^ 0x5c…: a backslash).
 */
function escapeOrControl(x: number): number {
  const b = x ^ 0x5c5c5c5c;
  return ~((((x & 0x7f7f7f7f) + 0x60606060) | x) & (((b & 0x7f7f7f7f) + 0x7f7f7f7f) | b)) & 0x80808080;
}

/**
 * Reads the character at `p` of a string closing at `close` (a raw byte, or an escape: then its
 * measures are added to `measured`); returns where the next one starts, or -1 when JSON.parse
 * would refuse it.
 */
function step(line: Buffer, p: number, close: number): number {
  const c = line[p];
  if (c !== BACKSLASH) return c < 0x20 ? -1 : p + 1;
  const e = line[p + 1];
  if (e === 0x6e) {
    measured.saved += 1;
    measured.newlines++;
    measured.afterNewline = p + 2;
    return p + 2;
  }
  if (e === 0x22 || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x72 || e === 0x74) {
    measured.saved += 1;
    return p + 2;
  }
  if (e !== 0x75) return -1; // (a byte JSON does not escape)
  const unit = codeUnit(line, p, close);
  if (unit < 0) return -1;
  if ((unit & 0xfc00) === 0xd800 && line[p + 6] === BACKSLASH && line[p + 7] === 0x75) {
    if ((codeUnit(line, p + 6, close) & 0xfc00) === 0xdc00) {
      // A surrogate pair: one character, 4 bytes for 12.
      measured.saved += 8;
      return p + 12;
    }
  }
  // One code unit: 1, 2 or 3 bytes (a lone surrogate is written as U+FFFD: 3) for 6.
  measured.saved += unit < 0x80 ? 5 : unit < 0x800 ? 4 : 3;
  if (unit === 10) {
    measured.newlines++;
    measured.afterNewline = p + 6;
  }
  return p + 6;
}

/** The code unit of the `\uXXXX` at `at` (its hex digits before `close`), or -1. */
function codeUnit(line: Buffer, at: number, close: number): number {
  if (at + 6 > close) return -1;
  let v = 0;
  for (let k = at + 2; k < at + 6; k++) {
    const d = hexDigit(line[k]);
    if (d < 0) return -1;
    v = (v << 4) | d;
  }
  return v;
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x57 : -1;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

/** A key's code by its raw bytes from `from` to `to`. */
function keyCode(line: Buffer, from: number, to: number): number {
  const n = to - from;
  if (n === 4) {
    return line[from] === 0x74 && line[from + 1] === 0x65 && line[from + 2] === 0x78 && line[from + 3] === 0x74
      ? TEXT
      : OTHER;
  }
  if (n !== 7) return OTHER;
  if (sameBytes(line, from, 'message')) return MESSAGE;
  if (sameBytes(line, from, 'content')) return CONTENT;
  return OTHER;
}

function sameBytes(line: Buffer, from: number, ascii: string): boolean {
  for (let k = 0; k < ascii.length; k++) if (line[from + k] !== ascii.charCodeAt(k)) return false;
  return true;
}
