/**
 * Whether a reading still describes its file: the bytes it covers are read again, from byte 0,
 * by a fresh reader into a throwaway index, and the two readings are compared field by field
 * (the reader's state, every warning, every slot of the index). A kept index restored on a reopen
 * and an open session whose file changed without growing are checked this way: what they show
 * must be exactly what a full read of the file gives (LEDGER.md §8), and a rewrite of a line in
 * the middle leaves the last line (the only one the append-only check reads) as it was.
 *
 * It reads the whole reading once more (in steps: the event loop runs between them), and holds a
 * second index while it runs; it runs only on those two occasions, never on an append.
 */
import type { ByteSource } from './byte-source';
import { LedgerIndex } from './ledger-index';
import { captureSnapshot, type LedgerSnapshot } from './ledger-snapshot';
import { LineFeeder } from './line-feeder';
import { LineReader, type LineSink } from './line-reader';
import { sortWarnings } from './warnings';

/** Bytes read between two turns of the event loop. */
const STEP_BYTES = 4 << 20;
const CHUNK = 1 << 20;

/** A fresh reading of `source`'s first `end` bytes (a line boundary), read in steps; `sink` sees its lines. */
export async function readAgain(
  source: ByteSource,
  end: number,
  stepBytes = STEP_BYTES,
  cancelled: () => boolean = () => false,
  sink: LineSink | null = null,
): Promise<LedgerSnapshot | null> {
  const index = new LedgerIndex();
  const reader = new LineReader(index);
  reader.sink = sink;
  const feeder = new LineFeeder(reader, 0);
  const buf = Buffer.allocUnsafe(CHUNK);
  let sinceStep = 0;
  while (feeder.fedOffset < end) {
    const n = source.readInto(buf, feeder.fedOffset, Math.min(CHUNK, end - feeder.fedOffset));
    if (n === 0) break; // shorter than the reading: told apart below
    feeder.push(buf.subarray(0, n));
    sinceStep += n;
    if (sinceStep >= stepBytes) {
      sinceStep = 0;
      await new Promise((r) => setImmediate(r));
      if (cancelled()) return null;
    }
  }
  return captureSnapshot(reader, index);
}

const bytes = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/**
 * How `fresh` (a full read of the same bytes) differs from `kept`, or null when they are the same
 * reading. Names lines, never their content (ids and text are the ledger's).
 */
export function readingDifference(kept: LedgerSnapshot | null, fresh: LedgerSnapshot | null): string | null {
  if (kept === null || fresh === null) return kept === fresh ? null : 'the file no longer has the lines read';
  if (kept.coveredBytes !== fresh.coveredBytes || kept.lines !== fresh.lines) {
    return `the file's lines moved (${fresh.lines} lines in ${fresh.coveredBytes} bytes, ${kept.lines} in ${kept.coveredBytes} read)`;
  }
  if (kept.prevHash !== fresh.prevHash || kept.lastLineOffset !== fresh.lastLineOffset) return 'its last line changed';
  const n = Math.min(kept.count, fresh.count);
  for (let i = 0; i < n; i++) {
    if (
      kept.ids[i] !== fresh.ids[i] ||
      kept.offset[i] !== fresh.offset[i] ||
      kept.length[i] !== fresh.length[i] ||
      kept.parent[i] !== fresh.parent[i] ||
      kept.kind[i] !== fresh.kind[i] ||
      kept.flags[i] !== fresh.flags[i]
    ) {
      return `the entry at line ${Math.min(kept.line[i], fresh.line[i])} changed`;
    }
  }
  if (kept.count !== fresh.count) return `it has ${fresh.count} entries, not ${kept.count}`;
  if (kept.header !== fresh.header || !bytes(kept.line).equals(bytes(fresh.line))) return 'its entries moved';
  if (!bytes(kept.usage).equals(bytes(fresh.usage))) return 'a usage changed';
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  if (
    !same(kept.orphanParent, fresh.orphanParent) ||
    !same(kept.unknownKind, fresh.unknownKind) ||
    !same(kept.routeKey, fresh.routeKey) ||
    !same(kept.packetRange, fresh.packetRange)
  ) {
    return 'what an entry names changed';
  }
  const a = sortWarnings([...kept.warnings]);
  const b = sortWarnings([...fresh.warnings]);
  for (let k = 0; k < Math.max(a.length, b.length); k++) {
    if (!same(a[k], b[k]))
      return `its warnings differ from line ${Math.min(a[k]?.line ?? Infinity, b[k]?.line ?? Infinity)}`;
  }
  return null;
}
