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
 * around it. Masking is itself a pass over every byte, and `indexOf` of a long needle another:
 * where one of the run's bytes is rare in the chunk (both its cases, judged on a sample), the
 * raw bytes are searched for that byte alone (`memchr` speed) and the run is compared, masked,
 * around each place found. Queries with no such run of a few bytes (mostly non-ASCII letters, or `i`/`k`,
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

/** A run of the anchor with one masked spelling per character, and how far the rest of the anchor reaches around it. */
export interface NeedleRun {
  bytes: Buffer;
  /** Bytes the anchor's characters before the run may take at most. */
  before: number;
  /** Bytes the anchor's characters after the run may take at most. */
  after: number;
}

/** What the fast finder looks for: the longest masked run of the anchor, or a rare byte of any run. */
export interface MaskedNeedle extends NeedleRun {
  /** Every run of the anchor (the longest among them): a rare byte is looked for in any. */
  runs: NeedleRun[];
  /** The whole anchor, checked where the run is found. */
  verify: RegExp;
  /** Combining marks may follow some character: checked over the whole line. */
  wholeLine: boolean;
}

/** The runs of the anchor with one masked spelling per character, and the longest, or null when it is too short. */
export function maskedNeedle(q: PreparedQuery): MaskedNeedle | null {
  const a = q.anchor;
  if (a.length === 0) return null;
  const spelled = a.map(maskedSpelling);
  const widest = (c: AnchorChar): number => Math.max(...c.spellings.map((s) => Buffer.byteLength(s, 'utf8')));
  const sum = (cs: AnchorChar[]): number => cs.reduce((n, c) => n + widest(c), 0);
  const runs: NeedleRun[] = [];
  let best: NeedleRun | null = null;
  for (let j = 0; j < a.length;) {
    if (spelled[j] === null) {
      j++;
      continue;
    }
    let e = j;
    while (e < a.length && spelled[e] !== null) e++;
    const run = {
      bytes: Buffer.concat(spelled.slice(j, e) as Buffer[]),
      before: sum(a.slice(0, j)),
      after: sum(a.slice(e)),
    };
    runs.push(run);
    if (run.bytes.length > (best?.bytes.length ?? 0)) best = run;
    j = e;
  }
  if (best === null || best.bytes.length < MIN_NEEDLE) return null;
  return {
    ...best,
    runs,
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

/** Slices of the chunk counted to judge how rare a byte is, and their length. */
const SAMPLES = 16;
const SAMPLE_BYTES = 2048;
/** A byte found more often than once in this many is not rare: the masked search is cheaper. */
const RARE_ONE_IN = 128;

/** A run and the offset in it of the byte looked for alone. */
interface RareByte {
  run: NeedleRun;
  at: number;
}

/**
 * The rarest byte of the needle's runs in `raw` (judged on slices spread over it, both cases
 * counted), when it is rare enough to look for alone (or `always`); else null.
 */
export function rarestByte(raw: Buffer, needle: MaskedNeedle, always = false): RareByte | null {
  const counts = new Uint32Array(256);
  const step = Math.max(SAMPLE_BYTES, Math.floor(raw.length / SAMPLES));
  let sampled = 0;
  for (let s = 0; s < raw.length; s += step) {
    const e = Math.min(raw.length, s + SAMPLE_BYTES);
    for (let k = s; k < e; k++) counts[raw[k]]++;
    sampled += e - s;
  }
  let best: RareByte | null = null;
  let fewest = Infinity;
  for (const run of needle.runs) {
    for (let j = 0; j < run.bytes.length; j++) {
      const n = counts[run.bytes[j]] + counts[run.bytes[j] | 0x20];
      if (n < fewest) [best, fewest] = [{ run, at: j }, n];
    }
  }
  return always || fewest * RARE_ONE_IN <= sampled ? best : null;
}

/** How the run is looked for: by its rarest byte, by the masked chunk, or as chosen from the chunk. */
export type NeedleSearch = 'auto' | 'rare-byte' | 'masked';

/** Where the run starts, at or after `from`, as `find` over the raw bytes `raw`. */
type RunFinder = (from: number) => number;

/** The run, masked, over a masked copy of the chunk. */
function maskedRun(raw: Buffer, run: Buffer): RunFinder {
  const end = raw.length;
  if (maskBuf.length < end) maskBuf = Buffer.alloc(Math.max(end, maskBuf.length * 2));
  maskInto(raw, end, maskBuf);
  const hay = maskBuf.subarray(0, end);
  return (from) => hay.indexOf(run, from);
}

/** The run found by its byte at `at` (either case) in the raw bytes, compared masked around it. */
function rareByteRun(raw: Buffer, run: Buffer, at: number): RunFinder {
  const lo = run[at];
  const hi = run[at] | 0x20;
  const len = run.length;
  const same = (s: number): boolean => {
    if (s < 0 || s + len > raw.length) return false;
    for (let j = 0; j < len; j++) if ((raw[s + j] & CASE_BIT_OFF) !== run[j]) return false;
    return true;
  };
  return (from) => {
    let a = raw.indexOf(lo, from + at);
    let b = raw.indexOf(hi, from + at);
    while (a >= 0 || b >= 0) {
      const k = a < 0 ? b : b < 0 ? a : Math.min(a, b);
      if (same(k - at)) return k - at;
      if (k === a) a = raw.indexOf(lo, k + 1);
      if (k === b) b = raw.indexOf(hi, k + 1);
    }
    return -1;
  };
}

/** The fast finder over `buf[0..end)`: the needle where the whole anchor is around it, or an escape. */
function needleFinder(buf: Buffer, end: number, needle: MaskedNeedle, search: NeedleSearch): Finder {
  const raw = buf.subarray(0, end);
  const rare = search === 'masked' ? null : rarestByte(raw, needle, search === 'rare-byte');
  const run = rare?.run ?? needle;
  const findRun = rare === null ? maskedRun(raw, needle.bytes) : rareByteRun(raw, rare.run.bytes, rare.at);
  const verified = (k: number): boolean => {
    let from = k - run.before;
    let to = k + run.bytes.length + run.after;
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
    for (let k = findRun(from); k >= 0; k = findRun(k + 1)) {
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
export function candidateFinder(
  buf: Buffer,
  end: number,
  needle: MaskedNeedle | null,
  pattern: RegExp | null,
  search: NeedleSearch = 'auto',
): Finder {
  if (needle !== null) return needleFinder(buf, end, needle, search);
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
