import type { ByteSource } from './byte-source';
import { DeferredHashCheck, type HashWalk } from './hash-check';
import type { LedgerIndex } from './ledger-index';
import type { HashCheckResult } from './ledger-options';
import type { LineReader } from './line-reader';
import { sortWarnings, type LedgerWarning } from './warnings';

/** What the check needs of its ledger: the file, and the reading now (a reload makes a new one). */
export interface HashCheckHost {
  readonly source: ByteSource;
  reading(): { reader: LineReader; index: LedgerIndex };
  /** The check marked entries: what was derived from them must be derived again. */
  marked(): void;
}

/**
 * A first read's hash chain checked after the read (OpenOptions.deferHashCheck), for one ledger:
 * from the deferral to the hash_mismatch warnings it adds to the reading.
 */
export class DeferredHashes {
  /** The hash check a first read deferred, until it is done. */
  private hashCheck: DeferredHashCheck | null = null;
  /** What this reading's deferred check found, once done (null: none was deferred, or not done yet). */
  private hashChecked: HashCheckResult | null = null;

  constructor(private readonly host: HashCheckHost) {}

  /** Reads from the start without hashing (a fresh ledger only): see OpenOptions.deferHashCheck. */
  defer(maxClaims?: number): void {
    const { reader } = this.host.reading();
    if (reader.lines > 0) throw new Error('a hash check is deferred from the first line only');
    this.hashCheck = new DeferredHashCheck(maxClaims);
    reader.deferHashes(this.hashCheck);
  }

  /** A first read's hash check is still to do. */
  get pending(): boolean {
    return this.hashCheck !== null;
  }

  /** A reading from byte 0 again hashes as it reads: no check, nothing found. */
  clear(): void {
    this.hashCheck = null;
    this.hashChecked = null;
  }

  /** The ledger closes: a check in steps stops at its next step. */
  stop(): void {
    this.hashCheck = null;
  }

  /**
   * Does the deferred check in steps of about `stepBytes`, letting the event loop run between
   * them. Resolves with what it found (also when something that needed every warning finished it
   * first), or null when this reading deferred none.
   */
  async inSteps(stepBytes: number): Promise<HashCheckResult | null> {
    const hc = this.hashCheck;
    if (hc === null) return this.hashChecked;
    for (;;) {
      if (this.hashCheck !== hc) return this.hashChecked; // finished by warnings(), or null: reset
      const found = this.walkOf(hc).step(stepBytes);
      if (found !== null) return this.adoptHashCheck(found);
      await new Promise((r) => setImmediate(r));
    }
  }

  /** The deferred check, done now in one go (what needs every warning cannot wait). */
  finish(): void {
    const hc = this.hashCheck;
    if (hc !== null) this.adoptHashCheck(this.walkOf(hc).step(Infinity) ?? []);
  }

  /** The check's walk; the region ends with the last line read (reads from now on hash as they go). */
  private walkOf(hc: DeferredHashCheck): HashWalk {
    const { reader, index } = this.host.reading();
    reader.endDeferral();
    return hc.walk(this.host.source, index);
  }

  private adoptHashCheck(found: LedgerWarning[]): HashCheckResult {
    // Entries marked: what was derived from them (warning marks, leaf views) is derived again.
    if (found.length > 0) this.host.marked();
    const warnings = this.host.reading().reader.warnings;
    for (const w of found) warnings.push(w); // (not push(...found): a damaged file may give 100k)
    sortWarnings(warnings);
    this.hashCheck = null;
    this.hashChecked = { mismatches: found.length };
    return this.hashChecked;
  }
}
