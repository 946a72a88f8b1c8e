import type { ByteSource } from './byte-source';
import type { LineFeeder } from './line-feeder';

/**
 * A ledger's bytes fed to its line feeder through one reused read buffer: in one go (the CLI,
 * a writer under the lock), or in steps that let the event loop run (the serving process).
 */

const CHUNK = 1 << 20; // one reused 1 MiB read buffer per read
// A read in steps lets the event loop run after every chunk: a request for the rows on screen
// (a first open's, sent as soon as the open answers, while its first step reads on) waits for
// one chunk of reading at most. At 4 MiB it waited for four, in code still cold on the first
// steps of a first open, beside the browser on the same cores. A turn costs next to nothing.
const FEED_YIELD_EVERY = CHUNK;
// The checks that read a file again in steps (Ledger.checkReading, checkHashes) step by 4 MiB.
export const YIELD_EVERY = 4 << 20;
// Progress is told every 16 MiB.
const PROGRESS_EVERY = 16 << 20;

/** A ledger's read buffer, allocated once and reused by every read. */
export function readBuffer(): Buffer {
  return Buffer.allocUnsafe(CHUNK);
}

/** Feeds the bytes from the feeder's offset up to `size`, synchronously. */
export function feedSync(source: ByteSource, feeder: LineFeeder, buf: Buffer, size: number): void {
  while (feeder.fedOffset < size) {
    const n = source.readInto(buf, feeder.fedOffset, Math.min(CHUNK, size - feeder.fedOffset));
    if (n === 0) break;
    feeder.push(buf.subarray(0, n));
  }
}

/**
 * Feeds the bytes up to `end`, yielding to the event loop every FEED_YIELD_EVERY bytes and
 * telling the offset fed so far every PROGRESS_EVERY. The feeder is asked for on every chunk: it
 * is the reading's current one.
 */
export async function feedInSteps(
  source: ByteSource,
  feeder: () => LineFeeder,
  buf: Buffer,
  end: number,
  onProgress: ((bytesRead: number) => void) | undefined,
  yieldTo?: () => Promise<void>,
): Promise<void> {
  let sinceYield = 0;
  let sinceProgress = 0;
  while (feeder().fedOffset < end) {
    // Told how to yield: before every chunk, the first too (the calls in flight go first).
    if (yieldTo) await yieldTo();
    const n = source.readInto(buf, feeder().fedOffset, Math.min(CHUNK, end - feeder().fedOffset));
    if (n === 0) break;
    feeder().push(buf.subarray(0, n));
    sinceYield += n;
    sinceProgress += n;
    if (sinceProgress >= PROGRESS_EVERY) {
      sinceProgress = 0;
      onProgress?.(feeder().fedOffset);
    }
    if (!yieldTo && sinceYield >= FEED_YIELD_EVERY) {
      sinceYield = 0;
      await new Promise((r) => setImmediate(r));
    }
  }
}
