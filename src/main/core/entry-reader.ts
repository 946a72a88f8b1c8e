import type { LedgerEntry } from './entry-types';
import type { LongStrings } from './json-skim';
import type { LedgerIndex } from './ledger-index';

/**
 * What projection reads of a ledger: its index and its entries by position. `Ledger` is one; the
 * projection modules depend on this, not on the reader, so reading never depends on projecting.
 */
export interface EntryReader {
  readonly index: LedgerIndex;
  /** The entry at index position `i`, parsed from its line (and kept in the entry cache). */
  entry(i: number): LedgerEntry;
  /** The same entry for a one-pass scan: parsed, not kept. */
  scanEntry(i: number): LedgerEntry;
  /**
   * The same entry for a one-pass read of Full shapes, tool results' long content strings
   * measured rather than decoded (ParsedEntries.skimmedEntry): `long` describes its placeholders
   * until the next call, null when it has none.
   */
  skimmedEntry(i: number): { entry: LedgerEntry; long: LongStrings | null };
}
