/**
 * The JSON text a first read parses for a long line, without the long strings it only measures
 * ("open → the active leaf's panes ≤ 1 s"). A big session is mostly tool results: on the
 * 100 MB bench session JSON.parse spent ~0.4 s of a first open making ~85 MB of strings that the
 * reader only measures for its notes (full-notes.ts: UTF-8 bytes and lines of a tool result, bytes
 * of a text block) and then drops. Here a lexer (json-skim-lexer.ts) finds the strings at
 * message.content[*].text and message.content[*].content and measures them, and the line is parsed
 * with each of them replaced by a placeholder string (`"\u0000<k>"`) whose measures `LongStrings`
 * keeps until the next line.
 *
 * Exactness: a whole string token replaced by another changes no other token, so the shorter text
 * parses exactly when the line does and to the same value but at those places; the lexer gives the
 * line up (it is then parsed as it is) on any long string JSON would refuse. Unforgeable: a text
 * is kept only when its sole `\u0000` escapes are its placeholders', so no other string of its
 * value holds U+0000 and none is ever taken for a placeholder, whatever the line's keys and
 * strings look like. Only the reader's notes see placeholders: entries are always parsed from
 * their lines when shown.
 */
import { findLongStrings, RECORD_INTS, type SkimKeys } from './json-skim-lexer';

/** Lines shorter than this are parsed as they are (nothing long enough to gain from). */
export const SKIM_MIN_LINE = 2048;
/** Nor longer than this: the buffer the shorter text is written to grows to the longest line skimmed. */
const SKIM_MAX_LINE = 4 << 20;
/** Strings (raw, quotes included) shorter than this stay in the text. */
export const SKIM_MIN_STRING = 256;

const MAX_RECORDS = 128;

/** The long strings of the last skimmed line, by placeholder number. */
export class LongStrings {
  count = 0;
  /** Per string: UTF-8 bytes of its decoded text, its `\n`s, whether it ends with one (0/1). */
  readonly bytes = new Int32Array(MAX_RECORDS);
  readonly newlines = new Int32Array(MAX_RECORDS);
  readonly endsNewline = new Int32Array(MAX_RECORDS);
  /** Per string: its token's start and end (exclusive, quotes included) in the line's bytes. */
  readonly starts = new Int32Array(MAX_RECORDS);
  readonly ends = new Int32Array(MAX_RECORDS);

  /** Which long string `s` (a string of the parsed line) stands for, or -1 when it is itself. */
  indexOf(s: string): number {
    if (s.length < 2 || s.length > 4 || s.charCodeAt(0) !== 0) return -1;
    let k = 0;
    for (let p = 1; p < s.length; p++) {
      const d = s.charCodeAt(p) - 48;
      if (d < 0 || d > 9) return -1;
      k = k * 10 + d;
    }
    return k < this.count ? k : -1;
  }

  /** lineCount (full-fidelity.ts) of long string `k`: never empty. */
  lineCount(k: number): number {
    return this.newlines[k] + 1 - this.endsNewline[k];
  }
}

/**
 * The shorter texts are written here, one per thread (a line is skimmed and its text decoded in
 * one synchronous step), grown to the longest line skimmed.
 */
let out = Buffer.allocUnsafeSlow(0);

/** The `\u0000` escape: in a skimmed text, only where a placeholder starts. */
const NUL_ESCAPE = Buffer.from('\\u0000');

/** Skims lines for one reader; `long` describes the placeholders of the last `text`. */
export class JsonSkim {
  readonly long = new LongStrings();
  private readonly records = new Int32Array(MAX_RECORDS * RECORD_INTS);
  /** Where each placeholder of the last text starts in it. */
  private readonly placed = new Int32Array(MAX_RECORDS);

  /**
   * `minString` ≥ 12: a placeholder token (up to 11 bytes) must never be longer than its string's.
   * `keys`: 'content' for a reader that shows text blocks but only measures tool results
   * (EntryReader.skimmedEntry).
   */
  constructor(
    readonly minLine = SKIM_MIN_LINE,
    readonly minString = SKIM_MIN_STRING,
    readonly keys: SkimKeys = 'text-and-content',
  ) {
    if (minString < 12) throw new RangeError(`minString ${minString} < 12`);
  }

  /**
   * The JSON text to parse for `line` (valid UTF-8, the reader checked). `known`: measures a
   * reading of these same bytes took (RECORD_INTS per string, in line order; FullNotes.measuresOf),
   * used for a long string found at the same place instead of measuring it again.
   */
  text(line: Buffer, known: Int32Array | null = null): string {
    const long = this.long;
    long.count = 0;
    if (line.length < this.minLine || line.length > SKIM_MAX_LINE) return line.toString('utf8');
    const records = this.records;
    const n = findLongStrings(line, this.minString, records, MAX_RECORDS, this.keys, known);
    if (n <= 0) return line.toString('utf8');

    if (out.length < line.length) out = Buffer.allocUnsafeSlow(Math.max(line.length, 2 * out.length));
    const placed = this.placed;
    // Each long string's token becomes its (shorter) placeholder token.
    let to = 0;
    let from = 0;
    for (let k = 0; k < n; k++) {
      const r = k * RECORD_INTS;
      to += line.copy(out, to, from, records[r]);
      placed[k] = to;
      to = writePlaceholder(out, to, k);
      from = records[r + 1];
      long.bytes[k] = records[r + 2];
      long.newlines[k] = records[r + 3];
      long.endsNewline[k] = records[r + 4];
      long.starts[k] = records[r];
      long.ends[k] = records[r + 1];
    }
    to += line.copy(out, to, from, line.length);
    // Unforgeable: U+0000 is written `\u0000` in JSON (never raw), so when the text has no other
    // `\u0000` than the placeholders', no other string of its value holds U+0000 (a `\\u0000` is
    // taken for one too: the line is then only parsed whole).
    const text = out.subarray(0, to);
    let k = 0;
    for (let at = text.indexOf(NUL_ESCAPE); at >= 0; at = text.indexOf(NUL_ESCAPE, at + NUL_ESCAPE.length)) {
      if (k >= n || at !== placed[k] + 1) return line.toString('utf8');
      k++;
    }
    long.count = n;
    return out.toString('utf8', 0, to);
  }
}

/** Writes `"\u0000<k>"` at `at`; returns the end. */
function writePlaceholder(mem: Uint8Array, at: number, k: number): number {
  const head = '"\\u0000';
  for (let p = 0; p < head.length; p++) mem[at++] = head.charCodeAt(p);
  const digits = String(k);
  for (let p = 0; p < digits.length; p++) mem[at++] = digits.charCodeAt(p);
  mem[at++] = 0x22;
  return at;
}
