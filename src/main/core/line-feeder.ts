import type { LineReader } from './line-reader';

const NL = 10;

/**
 * Splits a byte stream into physical lines, whatever the chunk boundaries.
 * A line that straddles chunks is carried over in one growable buffer; every
 * other line is handed to the reader as a view into the caller's chunk, so a
 * caller may reuse one read buffer for the whole file.
 */
export class LineFeeder {
  private carry = Buffer.allocUnsafe(0);
  private carryLen = 0;
  /** File offset of the next byte not yet given to the feeder. */
  private nextOffset: number;

  constructor(
    private readonly reader: LineReader,
    startOffset = 0,
  ) {
    this.nextOffset = startOffset;
  }

  /** Bytes after the last `\n` so far: an unterminated tail (§8), not an entry yet. */
  get pendingLength(): number {
    return this.carryLen;
  }

  /** File offset where the pending bytes start (= end of the last complete line). */
  get pendingOffset(): number {
    return this.nextOffset - this.carryLen;
  }

  /** File offset just past everything fed so far. */
  get fedOffset(): number {
    return this.nextOffset;
  }

  pendingBytes(): Buffer {
    return this.carry.subarray(0, this.carryLen);
  }

  push(bytes: Uint8Array): void {
    // Buffer's indexOf is a memchr; a plain Uint8Array's is a slow element loop.
    const chunk = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    const chunkStart = this.nextOffset;
    this.nextOffset += chunk.length;
    let pos = 0;
    if (this.carryLen > 0) {
      const nl = chunk.indexOf(NL);
      if (nl < 0) {
        this.append(chunk);
        return;
      }
      this.append(chunk.subarray(0, nl));
      const lineStart = chunkStart - (this.carryLen - nl);
      this.reader.line(this.carry.subarray(0, this.carryLen), lineStart);
      this.carryLen = 0;
      pos = nl + 1;
    }
    for (;;) {
      const nl = chunk.indexOf(NL, pos);
      if (nl < 0) break;
      this.reader.line(chunk.subarray(pos, nl), chunkStart + pos);
      pos = nl + 1;
    }
    // The lines handed over were views into `chunk` and `carry`: the reader is done with them
    // before the rest is carried over (into `carry`, which the last line may view).
    this.reader.endOfChunk();
    if (pos < chunk.length) this.append(chunk.subarray(pos));
  }

  private append(bytes: Uint8Array): void {
    const need = this.carryLen + bytes.length;
    if (need > this.carry.length) {
      const next = Buffer.allocUnsafe(Math.max(need, this.carry.length * 2, 4096));
      this.carry.copy(next, 0, 0, this.carryLen);
      this.carry = next;
    }
    this.carry.set(bytes, this.carryLen);
    this.carryLen = need;
  }
}
