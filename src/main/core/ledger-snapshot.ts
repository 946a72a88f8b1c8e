import { hash } from 'node:crypto';
import { readRange, type ByteSource } from './byte-source';
import { linkEntries } from './index-links';
import { idsIncrease, LedgerIndex, ORPHAN, UNKNOWN_KIND } from './ledger-index';
import type { LineReader } from './line-reader';
import { WARNING_CODES, type LedgerWarning } from './warnings';

/**
 * A verified reading of a ledger up to the end of its last complete line: the index and
 * the reader's state (warnings so far, the chain's last hash). Restored, it continues
 * exactly where a full read would be after those bytes, so a reopen reads only what came
 * after them. A pending torn tail is not part of it: it is
 * read again, as any appended byte.
 */
export interface LedgerSnapshot {
  /** File offset just past the last complete line (`\n` included). */
  coveredBytes: number;
  /** Physical lines read (complete ones). */
  lines: number;
  /** sha256 (hex) of the last complete line; its offset and length to check it is still there. */
  prevHash: string;
  lastLineOffset: number;
  lastLineLength: number;
  /** The reader's warnings so far, in the order it raised them. */
  warnings: LedgerWarning[];
  count: number;
  header: number;
  ids: string[];
  parent: Int32Array;
  kind: Uint8Array;
  flags: Uint8Array;
  line: Uint32Array;
  offset: Float64Array;
  length: Uint32Array;
  /** 4 slots per entry (see LedgerIndex.usage). */
  usage: Uint32Array;
  orphanParent: [number, string][];
  unknownKind: [number, string][];
  routeKey: [number, string][];
  packetRange: [number, string, string][];
}

/** Captures a reader's state (views into the live index: encode it before the next read). */
export function captureSnapshot(reader: LineReader, index: LedgerIndex): LedgerSnapshot | null {
  if (reader.lastLineOffset < 0 || reader.prevHash === null) return null;
  const n = index.count;
  return {
    coveredBytes: reader.lastLineOffset + reader.lastLineLength + 1,
    lines: reader.lines,
    prevHash: reader.prevHash,
    lastLineOffset: reader.lastLineOffset,
    lastLineLength: reader.lastLineLength,
    warnings: reader.warnings,
    count: n,
    header: index.header,
    ids: index.ids,
    parent: index.parent.subarray(0, n),
    kind: index.kind.subarray(0, n),
    flags: index.flags.subarray(0, n),
    line: index.line.subarray(0, n),
    offset: index.offset.subarray(0, n),
    length: index.length.subarray(0, n),
    usage: index.usage.subarray(0, n * 4),
    orphanParent: [...index.orphanParent],
    unknownKind: [...index.unknownKind],
    routeKey: [...index.routeKey],
    packetRange: [...index.packetRange].map(([i, [a, b]]) => [i, a, b]),
  };
}

/** Gives a reader over a restored index the state `captureSnapshot` kept: lines, last line, warnings. */
export function restoreReaderEnd(reader: LineReader, snap: LedgerSnapshot): void {
  reader.lines = snap.lines;
  reader.prevHash = snap.prevHash;
  reader.lastLineOffset = snap.lastLineOffset;
  reader.lastLineLength = snap.lastLineLength;
  reader.warnings.push(...snap.warnings);
}

/**
 * Why a snapshot no longer describes the start of `source`, or null when it still does:
 * the file is at least as long and the bytes of the last line it read still hash to the
 * same value, followed by `\n` (reads only that line).
 */
export function snapshotMismatch(source: ByteSource, snap: LedgerSnapshot): string | null {
  const size = source.size();
  if (size < snap.coveredBytes) return `the file shrank (${size} < ${snap.coveredBytes} bytes kept)`;
  const bytes = readRange(source, snap.lastLineOffset, snap.lastLineLength + 1);
  if (bytes.length !== snap.lastLineLength + 1 || bytes[snap.lastLineLength] !== 10) {
    return 'the last line kept is no longer a complete line';
  }
  if (hash('sha256', bytes.subarray(0, snap.lastLineLength), 'hex') !== snap.prevHash) {
    return 'the last line kept has changed';
  }
  return null;
}

/** A snapshot that does not hold together (a foreign or damaged kept index): never used. */
export class SnapshotInvalidError extends Error {
  constructor(what: string) {
    super(`kept index is invalid: ${what}`);
    this.name = 'SnapshotInvalidError';
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';

/**
 * Whether no id is there twice (restoreIndex: the reader never indexes one twice). Ids that increase
 * in file order differ: vak's are UUIDv7 (time first), so that is one pass of comparisons (~2 ms of
 * 36k, cold: `idsIncrease`, which the caller may have run); otherwise a Set of them (11-45 ms of 36k
 * on a reopen here). `ids` are strings.
 */
export function idsDiffer(ids: readonly string[], increase = idsIncrease(ids)): boolean {
  return increase || new Set(ids).size === ids.length;
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new SnapshotInvalidError(what);
}

/**
 * Indexes restored from their snapshots before a reopen asked for them (restoreIndexAhead),
 * by the very snapshot object: restoreIndex of that snapshot then takes it instead of restoring again.
 */
const restoredAhead = new WeakMap<LedgerSnapshot, LedgerIndex>();

/**
 * Rebuilds a LedgerIndex from a snapshot, checking every invariant a reader guarantees
 * (parents earlier, offsets increasing inside the covered bytes, unique ids…) so a kept
 * index that passed its checksum but was not written by this reader is refused, not trusted.
 * Children links are rebuilt from the parents, in file order, as `add` would.
 */
export function restoreIndex(snap: LedgerSnapshot): LedgerIndex {
  const ahead = restoredAhead.get(snap);
  if (ahead !== undefined) {
    restoredAhead.delete(snap); // an index is adopted by one reading only
    return ahead;
  }
  return restoreNow(snap);
}

/**
 * Restores (and checks, as restoreIndex does) the index of `snap` now, while nothing waits, so that
 * its restoreIndex later takes it at once. Throws SnapshotInvalidError as restoreIndex would.
 */
export function restoreIndexAhead(snap: LedgerSnapshot): void {
  if (!restoredAhead.has(snap)) restoredAhead.set(snap, restoreNow(snap));
}

function restoreNow(snap: LedgerSnapshot): LedgerIndex {
  const n = snap.count;
  check(Number.isInteger(n) && n >= 0 && snap.ids.length === n, 'entry count');
  for (const a of [snap.parent, snap.kind, snap.flags, snap.line, snap.offset, snap.length]) {
    check(a.length === n, 'array length');
  }
  check(snap.usage.length === n * 4, 'usage length');
  check(snap.lastLineOffset + snap.lastLineLength + 1 === snap.coveredBytes, 'last line');
  check(/^[0-9a-f]{64}$/.test(snap.prevHash), 'last hash');
  const ix = new LedgerIndex();
  const cap = Math.max(1024, n);
  ix.parent = new Int32Array(cap);
  ix.firstChild = new Int32Array(cap).fill(-1);
  ix.lastChild = new Int32Array(cap).fill(-1);
  ix.nextSibling = new Int32Array(cap).fill(-1);
  ix.childCount = new Uint32Array(cap);
  ix.kind = new Uint8Array(cap);
  ix.flags = new Uint8Array(cap);
  ix.line = new Uint32Array(cap);
  ix.offset = new Float64Array(cap);
  ix.length = new Uint32Array(cap);
  ix.usage = new Uint32Array(cap * 4);
  ix.parent.set(snap.parent);
  ix.kind.set(snap.kind);
  ix.flags.set(snap.flags);
  ix.line.set(snap.line);
  ix.offset.set(snap.offset);
  ix.length.set(snap.length);
  ix.usage.set(snap.usage);
  // Checked and linked in one loop (index-links.ts: a reopen runs this cold).
  const problem = linkEntries(ix, n, snap.coveredBytes, snap.lines);
  if (problem !== null) throw new SnapshotInvalidError(problem);
  const ids = snap.ids.slice(0, n);
  check(ids.every(isString), 'ids');
  // No id twice (the reader never indexes one twice), told at once when they increase.
  const increase = idsIncrease(ids);
  check(idsDiffer(ids, increase), 'ids');
  ix.adoptIds(ids, increase);
  ix.count = n;
  check(snap.header === -1 || snap.header === 0, 'header');
  ix.header = snap.header;
  const slot = (i: unknown): boolean => Number.isInteger(i) && (i as number) >= 0 && (i as number) < n;
  for (const [i, id] of snap.orphanParent) {
    check(slot(i) && ix.parent[i] === ORPHAN && typeof id === 'string', 'orphans');
    ix.orphanParent.set(i, id);
  }
  for (const [i, k] of snap.unknownKind) {
    check(slot(i) && ix.kind[i] === UNKNOWN_KIND && typeof k === 'string', 'unknown kinds');
    ix.unknownKind.set(i, k);
  }
  for (const [i, key] of snap.routeKey) {
    check(slot(i) && typeof key === 'string', 'route keys');
    ix.routeKey.set(i, key);
  }
  for (const [i, a, b] of snap.packetRange) {
    check(slot(i) && typeof a === 'string' && typeof b === 'string', 'packet ranges');
    ix.packetRange.set(i, [a, b]);
  }
  for (const w of snap.warnings) {
    check(
      WARNING_CODES.includes(w.code) &&
        Number.isInteger(w.line) &&
        w.line >= 1 &&
        w.line <= snap.lines &&
        Number.isInteger(w.offset) &&
        typeof w.message === 'string' &&
        (w.id === undefined || typeof w.id === 'string'),
      'warnings',
    );
  }
  return ix;
}
