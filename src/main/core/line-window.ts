import type { ByteSource } from './byte-source';

/** Bytes read at once for entries' lines: a chain's lines are read a window at a time. */
export const WINDOW_BYTES = 256 << 10;
/** A line starting at most this far after the previous one's end continues a sequential read. */
const SEQUENTIAL_GAP = 64 << 10;

/**
 * Entries' lines as text, read through one window of the file (issue 9: a leaf's first
 * projection parses every entry of its chain). A chain's entries lie in file order, mostly next
 * to each other: one read of WINDOW_BYTES serves the lines after it too, instead of one read and
 * one fresh Buffer per line (27k lines of a 100 MB chain: ~0.6 s of reads, now ~400 reads).
 * Only a read that continues the previous one reads ahead: a single entry read (a hover, the
 * header) reads its line alone, so the counted bytes of such work stay what it needs. Lines
 * longer than a quarter of the window are read alone too. Only text leaves the window, so its
 * buffer is reused and nothing holds on to it. The ledger is append-only while it is read (a
 * rewrite resets the ledger, and with it this window: `clear`).
 */
export class LineWindow {
  private buf: Buffer | null = null;
  /** File offset of buf[0], and how many bytes of buf were read from there. */
  private start = 0;
  private filled = 0;
  /** Where the last line asked for ended: the next one close after it reads ahead. */
  private lastEnd = -1;

  constructor(private readonly source: ByteSource) {}

  /** The `length` bytes at `offset` (one whole line, known to be in the file), as UTF-8 text. */
  text(offset: number, length: number): string {
    const sequential = this.lastEnd >= 0 && offset >= this.lastEnd && offset - this.lastEnd <= SEQUENTIAL_GAP;
    this.lastEnd = offset + length;
    if (this.buf !== null && offset >= this.start && offset + length <= this.start + this.filled) {
      return this.buf.toString('utf8', offset - this.start, offset - this.start + length);
    }
    if (!sequential || length > WINDOW_BYTES / 4) return this.direct(offset, length);
    this.buf ??= Buffer.allocUnsafe(WINDOW_BYTES);
    this.start = offset;
    this.filled = this.source.readInto(this.buf, offset, WINDOW_BYTES);
    if (length > this.filled) return this.direct(offset, length); // the file is shorter than its index says
    return this.buf.toString('utf8', 0, length);
  }

  /** Forgets what was read (the file was read again from its start). */
  clear(): void {
    this.filled = 0;
    this.start = 0;
    this.lastEnd = -1;
  }

  private direct(offset: number, length: number): string {
    const b = Buffer.allocUnsafe(length);
    const n = this.source.readInto(b, offset, length);
    return b.toString('utf8', 0, n);
  }
}
