import type { ByteSource } from './byte-source';
import { EntryCache } from './entry-cache';
import { JsonSkim, type LongStrings } from './json-skim';
import type { LedgerEntry } from './entry-types';
import { typedEntry } from './entry-validate';
import type { LedgerIndex } from './ledger-index';
import { holdsEntry } from './line-readback';
import { LineWindow } from './line-window';

/**
 * A ledger's accepted entries read back by offset, parsed and validated into their typed case
 * once, the most recently asked for kept. A line that no longer holds the entry the index put
 * there is never shown: `changed` makes the error that says the reading must start over.
 */
export class ParsedEntries {
  /** Parsed entries, the most recently asked for, bounded by their lines' bytes (payloads stay on disk otherwise). */
  private readonly cache = new EntryCache<LedgerEntry>();
  /** Entries' lines are read through a window (a chain's lines lie mostly next to each other). */
  private readonly lines: LineWindow;
  /** Entries parsed and validated from their line (cache misses). */
  materialised = 0;
  /** Skims lines for `skimmedEntry`: tool results' long content strings only (text blocks are shown). */
  private readonly skim = new JsonSkim(undefined, undefined, 'content');

  /**
   * `measured`: what the reading measured of entry `i`'s long strings (FullNotes.measuresOf), so a
   * skim of its line does not measure them again.
   */
  constructor(
    source: ByteSource,
    private readonly changed: (what: string) => Error,
    private readonly measured: (i: number) => Int32Array | null = () => null,
  ) {
    this.lines = new LineWindow(source);
  }

  /** Parsed entries held now, and the bytes of their lines (bounded: see EntryCache). */
  get cached(): { entries: number; bytes: number } {
    return { entries: this.cache.size, bytes: this.cache.bytes };
  }

  /** A reading from byte 0 again: nothing parsed or read before holds. */
  clear(): void {
    this.cache.clear();
    this.lines.clear();
  }

  /** Entry `i` of `ix`, parsed once (cached). */
  entry(ix: LedgerIndex, i: number): LedgerEntry {
    let e = this.cache.get(i);
    if (e) return e;
    e = this.parse(ix, i);
    this.cache.set(i, e, ix.length[i]);
    return e;
  }

  /** Entry `i` for a one-pass scan: from the cache when it is there, else parsed and not kept. */
  scanEntry(ix: LedgerIndex, i: number): LedgerEntry {
    return this.cache.get(i) ?? this.parse(ix, i);
  }

  /**
   * Entry `i` for a one-pass read of Full shapes: from the cache when it is there (`long` null),
   * else parsed and not kept, with the long strings at message.content[*].content replaced by
   * placeholders that `long` measures until the next call (json-skim.ts): a tool result at Full
   * is its digest, which needs only their lines and bytes. The caller uses the entry only where
   * its placeholders stand for such measures, and asks `scanEntry` otherwise.
   */
  skimmedEntry(ix: LedgerIndex, i: number): { entry: LedgerEntry; long: LongStrings | null } {
    const e = this.cache.get(i);
    if (e) return { entry: e, long: null };
    const entry = this.parse(ix, i, this.skim);
    return { entry, long: this.skim.long.count > 0 ? this.skim.long : null };
  }

  private parse(ix: LedgerIndex, i: number, skim: JsonSkim | null = null): LedgerEntry {
    this.materialised++;
    let line: unknown;
    try {
      const offset = ix.offset[i];
      const length = ix.length[i];
      line = JSON.parse(
        skim ? skim.text(this.lines.bytes(offset, length), this.measured(i)) : this.lines.text(offset, length),
      );
    } catch {
      throw this.changed(`line ${ix.line[i]} no longer parses`);
    }
    // The reader accepted an entry with this id and parent here: anything else is another line.
    if (!holdsEntry(line, ix, i)) {
      throw this.changed(`line ${ix.line[i]} no longer holds the entry read there`);
    }
    return typedEntry(line);
  }
}
