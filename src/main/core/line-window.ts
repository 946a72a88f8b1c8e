import type { ByteSource } from './byte-source';

/** Bytes read at once for entries' lines: a chain's lines are read a window at a time. */
export const WINDOW_BYTES = 256 << 10;
/** A line starting at most this far after the previous one's end continues a sequential read. */
const SEQUENTIAL_GAP = 64 << 10;
/** The least a window reads ahead; lines closer than this after the last one start windows again. */
const MIN_AHEAD = 16 << 10;

/**
 * Entries' lines as text, read through one window of the file (a leaf's first
 * projection parses every entry of its chain). A chain's entries lie in file order, mostly next
 * to each other: one read of WINDOW_BYTES serves the lines after it too, instead of one read and
 * one fresh Buffer per line (27k lines of a 100 MB chain: ~0.6 s of reads, now ~400 reads).
 * Only a read that continues the previous one reads ahead: a single entry read (a hover, the
 * header) reads its line alone, so the counted bytes of such work stay what it needs. Lines
 * longer than a quarter of the window are read alone too. How far it reads ahead follows what
 * the windows served (a leaf's scan of a few hundred messages spread over a 100 MB chain read
 * 37 MB of windows): a window mostly unused halves the next, one mostly used doubles it, and
 * one that served only the line it was read for stops reading ahead until lines come close
 * together again. Only text leaves the window, so its buffer is reused and nothing holds on to
 * it. The ledger is append-only while it is read (a rewrite resets the ledger, and with it this
 * window: `clear`).
 */
export class LineWindow {
  private buf: Buffer | null = null;
  /** File offset of buf[0], and how many bytes of buf were read from there. */
  private start = 0;
  private filled = 0;
  /** Where the last line asked for ended: the next one close after it reads ahead. */
  private lastEnd = -1;
  /** Bytes the next window reads (MIN_AHEAD … WINDOW_BYTES; 0: none, lines are read alone). */
  private ahead = WINDOW_BYTES;
  /** Lines the current window served, and their bytes. */
  private served = 0;
  private used = 0;

  constructor(private readonly source: ByteSource) {}

  /** The `length` bytes at `offset` (one whole line, known to be in the file), as UTF-8 text. */
  text(offset: number, length: number): string {
    return this.bytes(offset, length).toString('utf8');
  }

  /**
   * The same line's bytes, a view of the window when it holds them: valid until the next call
   * (a caller that skims a line copies what it keeps before it asks for another).
   */
  bytes(offset: number, length: number): Buffer {
    const gap = offset - this.lastEnd;
    const sequential = this.lastEnd >= 0 && gap >= 0 && gap <= SEQUENTIAL_GAP;
    this.lastEnd = offset + length;
    if (this.buf !== null && offset >= this.start && offset + length <= this.start + this.filled) {
      this.served++;
      this.used += length;
      return this.buf.subarray(offset - this.start, offset - this.start + length);
    }
    if (!sequential || length > WINDOW_BYTES / 4) return this.direct(offset, length);
    this.adapt(gap);
    if (this.ahead === 0) return this.direct(offset, length);
    this.buf ??= Buffer.allocUnsafe(WINDOW_BYTES);
    this.start = offset;
    this.served = 1;
    this.used = length;
    this.filled = this.source.readInto(this.buf, offset, Math.max(this.ahead, length));
    if (length > this.filled) return this.direct(offset, length); // the file is shorter than its index says
    return this.buf.subarray(0, length);
  }

  /** Before a window is read at a sequential line `gap` bytes after the last: how far to read ahead. */
  private adapt(gap: number): void {
    if (this.ahead === 0) {
      if (gap < MIN_AHEAD) this.ahead = MIN_AHEAD; // lines close together again
      return;
    }
    if (this.filled === 0) return; // no window read since the last clear
    if (this.served <= 1) this.ahead = 0;
    else if (this.used * 8 < this.filled) this.ahead = Math.max(MIN_AHEAD, this.ahead >> 1);
    else if (this.used * 2 > this.filled) this.ahead = Math.min(WINDOW_BYTES, this.ahead << 1);
  }

  /** Forgets what was read (the file was read again from its start). */
  clear(): void {
    this.filled = 0;
    this.start = 0;
    this.lastEnd = -1;
    this.ahead = WINDOW_BYTES;
    this.served = 0;
    this.used = 0;
  }

  private direct(offset: number, length: number): Buffer {
    const b = Buffer.allocUnsafe(length);
    const n = this.source.readInto(b, offset, length);
    return b.subarray(0, n);
  }
}
