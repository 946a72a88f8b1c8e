import type { ByteSource, FileStamp } from './byte-source';
import { stampIsRacy, stampSettled } from './racy-stamp';

type TakenStamp = FileStamp & { atMs: number };

/**
 * The file's stamp when a ledger's last read began, and when that was: a change event that finds
 * no new byte asks it whether the bytes already read may have been rewritten in place since.
 */
export class ReadStamp {
  private stampAtRead: TakenStamp | null = null;

  constructor(private readonly source: ByteSource) {}

  /** Resolves once a read begun now would leave a stamp that is not racy (see racy-stamp.ts). */
  settled(): Promise<void> | null {
    return stampSettled(this.source);
  }

  /** The file's stamp now, and when it was taken (null: not a file). */
  proofNow(): TakenStamp | null {
    const stamp = this.source.stamp?.();
    return stamp ? { ...stamp, atMs: Date.now() } : null;
  }

  /** A check read every byte read again after `proof` was taken: the reading is as of `proof`. */
  adopt(proof: TakenStamp): void {
    this.stampAtRead = proof;
  }

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
    return stampIsRacy(was, was.atMs);
  }
}
