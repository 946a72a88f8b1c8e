/**
 * The JSON text a first read parses for a long line, without the long strings it only measures
 * (issue 9, "open → the active leaf's panes ≤ 1 s"). A big session is mostly tool results: on the
 * 100 MB bench session JSON.parse spent ~0.4 s of a first open making ~85 MB of strings that the
 * reader only measures for its notes (full-notes.ts: UTF-8 bytes and lines of a tool result, bytes
 * of a text block) and then drops. Here a WebAssembly lexer (json-skim.wat) finds the strings at
 * message.content[*].text and message.content[*].content, measures them, and the line is parsed
 * with each of them replaced by a placeholder string (`"\u0000<k>"`) whose measures `LongStrings`
 * keeps until the next line.
 *
 * Exactness: a whole string token replaced by another changes no other token, so the shorter text
 * parses exactly when the line does and to the same value but at those places; the lexer gives the
 * line up (it is then parsed as it is) on any string JSON would refuse, and on a short string at
 * those places that starts with U+0000 (a real string is never taken for a placeholder). Only the
 * reader's notes see placeholders: entries are always parsed from their lines when shown.
 */
import { JSON_SKIM_WASM_BASE64 } from './json-skim-wasm';
import { findLongStrings, RECORD_INTS } from './json-skim-lexer';
import { compileWasm } from './wasm-module';

/** Lines shorter than this are parsed as they are (nothing long enough to gain from). */
export const SKIM_MIN_LINE = 2048;
/** Nor longer than this: the lexer's memory (json-skim.wat: 65 pages, never grown) holds one such line. */
const SKIM_MAX_LINE = 4 << 20;
/** Strings (raw, quotes included) shorter than this stay in the text. */
export const SKIM_MIN_STRING = 256;

/** Where json-skim.wat reads the line and writes its records (see the .wat). */
const INPUT = 4096;
const MAX_RECORDS = 128;
/** A SIMD load may read up to 15 bytes past the line (never used). */
const SLACK = 16;

/** The long strings of the last skimmed line, by placeholder number. */
export class LongStrings {
  count = 0;
  /** Per string: UTF-8 bytes of its decoded text, its `\n`s, whether it ends with one (0/1). */
  readonly bytes = new Int32Array(MAX_RECORDS);
  readonly newlines = new Int32Array(MAX_RECORDS);
  readonly endsNewline = new Int32Array(MAX_RECORDS);

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

interface SkimExports {
  memory: { readonly buffer: ArrayBuffer };
  skim(len: number, minLong: number, maxRecords: number): number;
}

/** The lexer and views of its memory (never grown, so they stay valid). */
interface Lexer {
  skim: SkimExports['skim'];
  bytes: Buffer;
  records: Int32Array;
}

/** One lexer per thread (a line is skimmed and parsed in one synchronous step); null if it cannot load. */
let lexer: Lexer | null | undefined;

function loadLexer(): Lexer | null {
  if (lexer === undefined) {
    lexer = null; // (no WebAssembly SIMD here, or no memory for it: every line is parsed as it is)
    const compiled = compileWasm(JSON_SKIM_WASM_BASE64);
    try {
      if (compiled !== null) {
        const { memory, skim } = new compiled.api.Instance(compiled.module).exports as SkimExports;
        lexer = {
          skim,
          bytes: Buffer.from(memory.buffer),
          records: new Int32Array(memory.buffer, 0, MAX_RECORDS * RECORD_INTS),
        };
      }
    } catch {
      // stays null
    }
  }
  return lexer;
}

/** The `\u0000` escape: in a skimmed text, only where a placeholder starts. */
const NUL_ESCAPE = Buffer.from('\\u0000');

/** Skims lines for one reader; `long` describes the placeholders of the last `text`. */
export class JsonSkim {
  readonly long = new LongStrings();
  private readonly records = new Int32Array(MAX_RECORDS * RECORD_INTS);
  /** Where each placeholder of the last text starts in it. */
  private readonly placed = new Int32Array(MAX_RECORDS);
  /** The shorter text is written here (grown to the longest line skimmed). */
  private out = Buffer.allocUnsafeSlow(0);

  /** `minString` ≥ 12: a placeholder token (up to 11 bytes) must never be longer than its string's. */
  constructor(
    readonly minLine = SKIM_MIN_LINE,
    readonly minString = SKIM_MIN_STRING,
    readonly lexer: 'ts' | 'wasm' = 'ts',
  ) {
    if (minString < 12) throw new RangeError(`minString ${minString} < 12`);
  }

  /** The JSON text to parse for `line` (valid UTF-8, the reader checked). */
  text(line: Buffer): string {
    const long = this.long;
    long.count = 0;
    if (line.length < this.minLine || line.length > SKIM_MAX_LINE) return line.toString('utf8');
    let src = line;
    let base = 0;
    let n: number;
    let records: Int32Array = this.records;
    if (this.lexer === 'wasm') {
      const lex = loadLexer();
      if (lex === null) return line.toString('utf8');
      const { bytes: mem } = lex;
      if (mem.length < INPUT + line.length + SLACK) return line.toString('utf8'); // (never: SKIM_MAX_LINE)
      mem.set(line, INPUT);
      n = lex.skim(line.length, this.minString, MAX_RECORDS);
      src = mem;
      base = INPUT;
      records = lex.records;
    } else n = findLongStrings(line, this.minString, records, MAX_RECORDS);
    if (n <= 0) return line.toString('utf8');

    if (this.out.length < line.length) this.out = Buffer.allocUnsafeSlow(Math.max(line.length, 2 * this.out.length));
    const out = this.out;
    const placed = this.placed;
    let to = 0;
    let from = base;
    for (let k = 0; k < n; k++) {
      const r = k * RECORD_INTS;
      const start = base + records[r];
      to += src.copy(out, to, from, start);
      placed[k] = to;
      to = writePlaceholder(out, to, k);
      from = base + records[r + 1];
      long.bytes[k] = records[r + 2];
      long.newlines[k] = records[r + 3];
      long.endsNewline[k] = records[r + 4];
    }
    to += src.copy(out, to, from, base + line.length);
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
