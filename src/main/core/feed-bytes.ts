import type { ByteSource } from './byte-source';
import type { ReadProgress } from './ledger-options';
import type { LineFeeder } from './line-feeder';
import type { LineSink } from './line-reader';

/**
 * A ledger's bytes fed to its line feeder through one reused read buffer: in one go (the CLI,
 * a writer under the lock), or in steps that let the event loop run (the serving process).
 */

const CHUNK = 1 << 20; // one reused 1 MiB read buffer per read
// Let the event loop breathe every 4 MiB (~25 ms of reading): a request for the rows on screen
// waits at most that long behind a big read. Progress is told every 16 MiB.
export const YIELD_EVERY = 4 << 20;
const PROGRESS_EVERY = 16 << 20;

/** A ledger's read buffer, allocated once and reused by every read. */
export function readBuffer(): Buffer {
  return Buffer.allocUnsafe(CHUNK);
}

/**
 * Reads the chunk at `offset` (at most `max` bytes) into `buf`, or into the buffer `sink` lends
 * (LineSink.readInto: a secret scanner then keeps the chunk's lines without copying them), and
 * feeds it; the lent buffer is handed back once the feeder is done with it. Bytes read; 0 at the end.
 */
function feedChunk(
  source: ByteSource,
  feeder: LineFeeder,
  buf: Buffer,
  offset: number,
  max: number,
  sink: LineSink | null,
): number {
  const lent = sink?.readInto?.() ?? null;
  try {
    const into = lent ?? buf;
    const n = source.readInto(into, offset, Math.min(into.length, max));
    if (n > 0) feeder.push(into.subarray(0, n));
    return n;
  } finally {
    if (lent) sink?.chunkRead?.();
  }
}

/** Feeds the bytes from the feeder's offset up to `size`, synchronously. */
export function feedSync(
  source: ByteSource,
  feeder: LineFeeder,
  buf: Buffer,
  size: number,
  sink: LineSink | null = null,
): void {
  while (feeder.fedOffset < size) {
    const n = feedChunk(source, feeder, buf, feeder.fedOffset, Math.min(CHUNK, size - feeder.fedOffset), sink);
    if (n === 0) break;
  }
}

/**
 * Feeds the bytes up to `end` of a file of `size`, yielding to the event loop every YIELD_EVERY
 * bytes and telling progress every PROGRESS_EVERY. The feeder is asked for on every chunk: it is
 * the reading's current one.
 */
export async function feedInSteps(
  source: ByteSource,
  feeder: () => LineFeeder,
  buf: Buffer,
  end: number,
  size: number,
  onProgress: ((p: ReadProgress) => void) | undefined,
  sink: () => LineSink | null = () => null,
): Promise<void> {
  let sinceYield = 0;
  let sinceProgress = 0;
  while (feeder().fedOffset < end) {
    const n = feedChunk(source, feeder(), buf, feeder().fedOffset, Math.min(CHUNK, end - feeder().fedOffset), sink());
    if (n === 0) break;
    sinceYield += n;
    sinceProgress += n;
    if (sinceProgress >= PROGRESS_EVERY) {
      sinceProgress = 0;
      onProgress?.({ bytesRead: feeder().fedOffset, bytesTotal: size });
    }
    if (sinceYield >= YIELD_EVERY) {
      sinceYield = 0;
      await new Promise((r) => setImmediate(r));
    }
  }
}
