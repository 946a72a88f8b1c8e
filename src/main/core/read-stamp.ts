import type { ByteSource, FileStamp } from './byte-source';

/**
 * A write within this long after the stamp's mtime may share its timestamp (file times are kept
 * at the kernel's coarse clock, a tick of 1-10 ms; some file systems keep seconds): a stamp taken
 * that soon does not prove that nothing was written since.
 */
const RACY_MS = 2000;

/**
 * The file's stamp when a ledger's last read began, and when that was: a change event that finds
 * no new byte asks it whether the bytes already read may have been rewritten in place since.
 */
export class ReadStamp {
  private stampAtRead: (FileStamp & { atMs: number }) | null = null;

  constructor(private readonly source: ByteSource) {}

  /** The file's size, and its stamp noted (a file only). */
  sizeForRead(): number {
    const stamp = this.source.stamp?.();
    if (!stamp) return this.source.size();
    this.stampAtRead = { ...stamp, atMs: Date.now() };
    return stamp.size;
  }

  /** Whether anything may have been written since the last read began (its stamp differs, or is too recent to tell). */
  mayHaveChanged(): boolean {
    const was = this.stampAtRead;
    const now = this.source.stamp?.();
    if (!was || !now) return true;
    if (now.size !== was.size || now.mtimeNs !== was.mtimeNs || now.ctimeNs !== was.ctimeNs) return true;
    return was.atMs - Number(was.mtimeNs / 1_000_000n) < RACY_MS;
  }
}
