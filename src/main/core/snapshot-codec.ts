import { isUtf8 } from 'node:buffer';
import { createHash, hash } from 'node:crypto';
import { SnapshotInvalidError, type LedgerSnapshot } from './ledger-snapshot';
import type { LedgerWarning } from './warnings';
import { FACT_INTS, turnColumns, type KeptTurns, type TurnColumns } from './kept-turns';
import type { KeptLayout } from './tree-layout';
import type { WorkFold } from './work-fold';

/** What is kept with an index besides it (each null when there is none). */
export interface KeptExtras {
  work: WorkFold | null;
  turns: KeptTurns | null;
  /** A whole build of the tree layout of the entries the index covers (tree-layout.ts). */
  layout: KeptLayout | null;
}

const NO_EXTRAS: KeptExtras = { work: null, turns: null, layout: null };

/**
 * The bytes of a kept index (`*.vkix`): magic, format version, a JSON part (the file it
 * belongs to, the reader's state, warnings and the sparse maps), the typed arrays as
 * raw little-endian bytes, the turns' costs as columns (TurnColumns: their numbers as raw bytes,
 * their strings as the ids are), the ids (their lengths, then their UTF-8 text one after the
 * other), and a sha256 of everything before it. The JSON part may also carry
 * what was derived from the index when it was kept (`KeptExtras`: the active chain's work fold,
 * the closed turns' Full costs, the tree layout: its lanes and fold rows as raw bytes after the
 * index's arrays), so a reopen computes only what came since. A file that fails
 * any of these is refused whole (SnapshotInvalidError); restoreIndex then checks its meaning.
 */

const MAGIC = Buffer.from('VKIX');
/** Bump on any change of this layout or of what the reader records: older files are then ignored. */
export const SNAPSHOT_FORMAT = 4;
const SUM = 32;

/** The file a snapshot was read from: it is used only for that very file. */
export interface SnapshotKey {
  realPath: string;
  dev: number;
  ino: number;
}

interface JsonPart extends SnapshotKey {
  coveredBytes: number;
  lines: number;
  prevHash: string;
  lastLineOffset: number;
  lastLineLength: number;
  count: number;
  header: number;
  /** Bytes of the ids' UTF-8 text (after their lengths, which follow the arrays and the layout). */
  idBytes: number;
  warnings: LedgerWarning[];
  orphanParent: [number, string][];
  unknownKind: [number, string][];
  routeKey: [number, string][];
  packetRange: [number, string, string][];
  /** Absent in files kept before they were added (same format: older readers ignore them). */
  work?: WorkFold | null;
  /**
   * The sizes of the turns' columns, which follow the layout's bytes: raw numbers, then their
   * strings' lengths and UTF-8 text (read back as slices, not parsed: a reopen's first leaf waits).
   */
  turns: TurnSizes | null;
  /** The kept layout's lane holds and its row count; its lanes and fold rows follow the arrays. */
  layout: { busy: number[]; foldRows: number } | null;
}

interface TurnSizes {
  facts: number;
  sources: number;
  acks: number;
  small: number;
  strings: number;
  stringBytes: number;
}

type Arrays = Pick<LedgerSnapshot, 'offset' | 'parent' | 'line' | 'length' | 'usage' | 'kind' | 'flags'>;
const ARRAYS: { name: keyof Arrays; per: number; ctor: { new (n: number): Arrays[keyof Arrays] } }[] = [
  { name: 'offset', per: 1, ctor: Float64Array },
  { name: 'parent', per: 1, ctor: Int32Array },
  { name: 'line', per: 1, ctor: Uint32Array },
  { name: 'length', per: 1, ctor: Uint32Array },
  { name: 'usage', per: 4, ctor: Uint32Array },
  { name: 'kind', per: 1, ctor: Uint8Array },
  { name: 'flags', per: 1, ctor: Uint8Array },
];

const bytesOf = (a: Arrays[keyof Arrays]): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/**
 * Ids per piece of the JSON part's text: a kept index of 1M entries wrote its JSON part as one
 * string (~40 MB, and as much again while JSON.stringify built it, then its bytes): its keep was
 * the peak of the session's first open (+130 MB over the read, `npm run bench -- memory`).
 */
const IDS_PER_PIECE = 65536;

/**
 * A lone surrogate: UTF-8 cannot carry it (it would come back as U+FFFD, another id), so an index
 * holding such an id is not kept (no vak id has one; JSON allowed it).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The ids as parts: each id's length in UTF-16 code units, then their text, IDS_PER_PIECE at a
 * time (never one string of them all). Read back as one string cut at those lengths: a reopen's
 * JSON.parse of 36k ids as an array was most of its JSON part's cost.
 */
function idParts(ids: readonly string[], n: number): { lengths: Uint32Array; text: Buffer[] } {
  const lengths = new Uint32Array(n);
  const text: Buffer[] = [];
  for (let at = 0; at < n; at += IDS_PER_PIECE) {
    const end = Math.min(n, at + IDS_PER_PIECE);
    for (let i = at; i < end; i++) lengths[i] = ids[i].length;
    const piece = ids.slice(at, end).join('');
    if (LONE_SURROGATE.test(piece)) throw new SnapshotInvalidError('an id is not well-formed text');
    text.push(Buffer.from(piece, 'utf8'));
  }
  return { lengths, text };
}

/**
 * The bytes of a kept index as parts to write one after the other (memory follows the
 * index): the head, the JSON part, then the typed arrays as views of the snapshot's (no copy: a
 * 1M-entry index is ~80 MB encoded), then the checksum. Computed synchronously, as the snapshot
 * views a live index: its JSON part is taken now, and the arrays' slots of the entries it covers
 * are written once, when an entry is indexed, so they hold still while the parts are written.
 * Throws SnapshotInvalidError for an index whose ids UTF-8 cannot carry (not kept).
 */
export function encodeSnapshotParts(
  snap: LedgerSnapshot,
  key: SnapshotKey,
  extras: KeptExtras = NO_EXTRAS,
): { parts: Uint8Array[]; byteLength: number } {
  const { work, turns } = extras;
  // Only a layout of the entries this snapshot covers.
  const layout = extras.layout !== null && extras.layout.count === snap.count ? extras.layout : null;
  const ids = idParts(snap.ids, snap.count);
  const turnParts = turns === null ? null : turnBytes(turns);
  const json: JsonPart = {
    realPath: key.realPath,
    dev: key.dev,
    ino: key.ino,
    coveredBytes: snap.coveredBytes,
    lines: snap.lines,
    prevHash: snap.prevHash,
    lastLineOffset: snap.lastLineOffset,
    lastLineLength: snap.lastLineLength,
    count: snap.count,
    header: snap.header,
    idBytes: ids.text.reduce((n, p) => n + p.length, 0),
    warnings: snap.warnings,
    orphanParent: snap.orphanParent,
    unknownKind: snap.unknownKind,
    routeKey: snap.routeKey,
    packetRange: snap.packetRange,
    // Only a fold of the entries this snapshot covers.
    work: work !== null && work.tip < snap.count ? work : null,
    turns: turnParts === null ? null : turnParts.sizes,
    layout: layout === null ? null : { busy: layout.busy, foldRows: layout.foldStart.length },
  };
  const text = Buffer.from(JSON.stringify(json), 'utf8');
  const head = Buffer.allocUnsafe(12);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(SNAPSHOT_FORMAT, 4);
  head.writeUInt32LE(text.length, 8);
  const parts: Uint8Array[] = [head, text, ...ARRAYS.map((a) => bytesOf(snap[a.name]))];
  if (layout !== null) parts.push(bytesOf(layout.lanes), bytesOf(layout.foldStart));
  if (turnParts !== null) parts.push(...turnParts.parts);
  parts.push(bytesOf(ids.lengths), ...ids.text);
  const sum = createHash('sha256');
  for (const p of parts) sum.update(p);
  parts.push(sum.digest());
  return { parts, byteLength: parts.reduce((n, p) => n + p.byteLength, 0) };
}

/** Encodes a snapshot of the file `key` as one buffer (see encodeSnapshotParts). */
export function encodeSnapshot(snap: LedgerSnapshot, key: SnapshotKey, extras: KeptExtras = NO_EXTRAS): Buffer {
  return Buffer.concat(encodeSnapshotParts(snap, key, extras).parts);
}

/** Decodes a kept index; throws SnapshotInvalidError for anything but an intact file of this format. */
export function decodeSnapshot(buf: Buffer): {
  key: SnapshotKey;
  snapshot: LedgerSnapshot;
  work: WorkFold | null;
  /** Checked for their meaning when a leaf first needs them (TurnCache.fromColumns). */
  turns: TurnColumns | null;
  /** Checked for its ranges when used (TreeLayout.fromKept). */
  layout: KeptLayout | null;
} {
  if (buf.length < 12 + SUM || !buf.subarray(0, 4).equals(MAGIC)) throw new SnapshotInvalidError('not a kept index');
  const version = buf.readUInt32LE(4);
  if (version !== SNAPSHOT_FORMAT) throw new SnapshotInvalidError(`format ${version}, not ${SNAPSHOT_FORMAT}`);
  const body = buf.subarray(0, buf.length - SUM);
  if (!hash('sha256', body, 'buffer').equals(buf.subarray(buf.length - SUM))) {
    throw new SnapshotInvalidError('checksum');
  }
  const jsonLen = buf.readUInt32LE(8);
  if (12 + jsonLen > body.length) throw new SnapshotInvalidError('length');
  let j: JsonPart;
  try {
    j = JSON.parse(body.toString('utf8', 12, 12 + jsonLen)) as JsonPart;
  } catch {
    throw new SnapshotInvalidError('JSON part');
  }
  const ints = [
    j.dev,
    j.ino,
    j.coveredBytes,
    j.lines,
    j.lastLineOffset,
    j.lastLineLength,
    j.count,
    j.header,
    j.idBytes,
  ];
  if (!ints.every((v) => Number.isInteger(v)) || typeof j.realPath !== 'string' || typeof j.prevHash !== 'string') {
    throw new SnapshotInvalidError('fields');
  }
  const lists = [j.warnings, j.orphanParent, j.unknownKind, j.routeKey, j.packetRange];
  if (
    !lists.every((l) => Array.isArray(l)) ||
    ![j.orphanParent, j.unknownKind, j.routeKey, j.packetRange].every((l) => l.every((x) => Array.isArray(x)))
  ) {
    throw new SnapshotInvalidError('lists');
  }
  if (!j.warnings.every((w) => typeof w === 'object' && w !== null && !Array.isArray(w))) {
    throw new SnapshotInvalidError('warnings');
  }
  const n = j.count;
  if (n < 0 || j.idBytes < 0) throw new SnapshotInvalidError('count');
  const work = j.work ?? null;
  if (work !== null && !isWorkFold(work, n)) throw new SnapshotInvalidError('work');
  const ts = j.turns ?? null;
  if (ts !== null && !(isObject(ts) && TURN_SIZES.every((k) => Number.isInteger(ts[k]) && ts[k] >= 0))) {
    throw new SnapshotInvalidError('turns');
  }
  const lay = j.layout ?? null;
  if (
    lay !== null &&
    !(
      isObject(lay) &&
      Array.isArray(lay.busy) &&
      Number.isInteger(lay.foldRows) &&
      lay.foldRows >= 0 &&
      lay.foldRows <= n
    )
  ) {
    throw new SnapshotInvalidError('layout');
  }
  let at = 12 + jsonLen;
  const arrays = Object.create(null) as Record<keyof Arrays, Arrays[keyof Arrays]>;
  for (const a of ARRAYS) {
    const out = new a.ctor(n * a.per);
    const len = out.byteLength;
    if (at + len > body.length) throw new SnapshotInvalidError('arrays');
    body.copy(bytesOf(out), 0, at, at + len);
    arrays[a.name] = out;
    at += len;
  }
  let layout: KeptLayout | null = null;
  if (lay !== null) {
    const lanes = new Int32Array(n);
    const foldStart = new Int32Array(lay.foldRows);
    for (const out of [lanes, foldStart]) {
      if (at + out.byteLength > body.length) throw new SnapshotInvalidError('layout');
      body.copy(bytesOf(out), 0, at, at + out.byteLength);
      at += out.byteLength;
    }
    layout = { count: n, lanes, busy: lay.busy, foldStart };
  }
  let turns: TurnColumns | null = null;
  if (ts !== null) {
    const read = <T extends Int32Array | Float64Array | Uint32Array>(out: T): T => {
      if (at + out.byteLength > body.length) throw new SnapshotInvalidError('turns');
      body.copy(bytesOf(out), 0, at, at + out.byteLength);
      at += out.byteLength;
      return out;
    };
    const facts = read(new Int32Array(ts.facts * FACT_INTS));
    const bpt = read(new Float64Array(ts.facts));
    const sources = read(new Int32Array(ts.sources));
    const ackEntries = read(new Int32Array(ts.acks));
    const smallValues = read(new Float64Array(ts.small));
    const lengths = read(new Uint32Array(ts.strings));
    if (at + ts.stringBytes > body.length || !isUtf8(body.subarray(at, at + ts.stringBytes))) {
      throw new SnapshotInvalidError('turns');
    }
    const strings = cutAt(body.toString('utf8', at, at + ts.stringBytes), lengths, 'turns');
    at += ts.stringBytes;
    turns = { facts, bpt, sources, ackEntries, smallValues, strings };
  }
  const lengths = new Uint32Array(n);
  if (at + lengths.byteLength + j.idBytes !== body.length) throw new SnapshotInvalidError('ids');
  body.copy(bytesOf(lengths), 0, at, at + lengths.byteLength);
  at += lengths.byteLength;
  // Bytes that are not UTF-8 would decode to U+FFFD: an id never written.
  if (!isUtf8(body.subarray(at, at + j.idBytes))) throw new SnapshotInvalidError('ids');
  const ids = cutAt(body.toString('utf8', at, at + j.idBytes), lengths, 'ids');
  at += j.idBytes;
  if (at !== body.length) throw new SnapshotInvalidError('trailing bytes');
  const snapshot: LedgerSnapshot = {
    coveredBytes: j.coveredBytes,
    lines: j.lines,
    prevHash: j.prevHash,
    lastLineOffset: j.lastLineOffset,
    lastLineLength: j.lastLineLength,
    warnings: j.warnings,
    count: n,
    header: j.header,
    ids,
    ...(arrays as Arrays),
    orphanParent: j.orphanParent,
    unknownKind: j.unknownKind,
    routeKey: j.routeKey,
    packetRange: j.packetRange,
  };
  return { key: { realPath: j.realPath, dev: j.dev, ino: j.ino }, snapshot, work, turns, layout };
}

/** Strings cut from their text at their lengths (slices of it: one string read, no array parsed). */
function cutAt(text: string, lengths: Uint32Array, what: string): string[] {
  const out: string[] = []; // packed, as an index's own ids
  let from = 0;
  for (let i = 0; i < lengths.length; i++) {
    const to = from + lengths[i];
    if (to > text.length) throw new SnapshotInvalidError(what);
    out.push(text.slice(from, to));
    from = to;
  }
  if (from !== text.length) throw new SnapshotInvalidError(what);
  return out;
}

const TURN_SIZES = ['facts', 'sources', 'acks', 'small', 'strings', 'stringBytes'] as const;

/**
 * The turns' costs as parts to write after the layout, and their sizes for the JSON part; null
 * when a string of them is not well-formed text (the index is kept without them).
 */
function turnBytes(turns: KeptTurns): { parts: Uint8Array[]; sizes: TurnSizes } | null {
  const cols = turnColumns(turns);
  let strings: { lengths: Uint32Array; text: Buffer[] };
  try {
    strings = idParts(cols.strings, cols.strings.length);
  } catch (e) {
    if (e instanceof SnapshotInvalidError) return null;
    throw e;
  }
  const parts = [cols.facts, cols.bpt, cols.sources, cols.ackEntries, cols.smallValues, strings.lengths].map(bytesOf);
  const sizes: TurnSizes = {
    facts: cols.bpt.length,
    sources: cols.sources.length,
    acks: cols.ackEntries.length,
    small: cols.smallValues.length,
    strings: cols.strings.length,
    stringBytes: strings.text.reduce((n, p) => n + p.length, 0),
  };
  return { parts: [...parts, ...strings.text], sizes };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A kept work fold of `count` entries: its tip one of them, its items WorkItem-shaped (state and detail are any JSON). */
function isWorkFold(v: unknown, count: number): v is WorkFold {
  if (!isObject(v) || !Number.isInteger(v['tip']) || (v['tip'] as number) < 0 || (v['tip'] as number) >= count) {
    return false;
  }
  const items = v['items'];
  return (
    Array.isArray(items) &&
    items.every(
      (w) =>
        isObject(w) &&
        ['work_id', 'last_event', 'first_entry', 'last_entry', 'last_ts'].every((k) => typeof w[k] === 'string') &&
        Number.isInteger(w['events']) &&
        (w['events'] as number) > 0 &&
        'state' in w &&
        'detail' in w,
    )
  );
}
