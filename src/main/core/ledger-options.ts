/**
 * What opening and refreshing a ledger is told (how to read, what to note, who sees the lines)
 * and what it answers: kept apart from the Ledger class so that callers can name them alone.
 */
import type { LineSink, RestoredLineSink } from './line-reader';

export interface ReadProgress {
  bytesRead: number;
  bytesTotal: number;
  /** Entries in the index so far (those of earlier reads too). */
  entriesRead: number;
}

export interface OpenOptions {
  /** Called every few MiB while a large file is read. */
  onProgress?: (p: ReadProgress) => void;
  /**
   * Read at most this many bytes now (default: to the end). A read that stops short leaves
   * `moreToRead` true and the rest to later `refresh` calls: a first open shows its first
   * rows while the rest is still being read.
   */
  maxBytes?: number;
  /**
   * With `maxBytes`, a first open (Ledger.open) of a file bigger than `maxBytes` stops after these
   * fewer bytes: its first answer waits for a screen of rows, not a whole step of the read.
   */
  firstBytes?: number;
  /**
   * What a read in steps awaits before each chunk instead of one turn of the event loop: the
   * serving process lets the requests in flight answer first (library/read-turns.ts).
   */
  yieldTo?: () => Promise<void>;
  /**
   * Note every message's Full cost at this bytes_per_token while reading (full-notes.ts), so a
   * first leaf's closed turns are costed without parsing their messages again. Taken at open
   * (and resume): the ledger keeps noting on refreshes and reloads.
   */
  noteFullCosts?: number;
  /**
   * A first read that stops short (`maxBytes` below the file's size: a big session read in steps)
   * checks the hash chain after it instead of line by line (hash-check.ts): call `checkHashes`
   * when the first answers are out. Until then `warningsSoFar()` lacks any hash_mismatch, and
   * `warnings()` or `snapshot()` finish the check first. A synchronous read (`openSync`) that needs
   * no warning (`project`) leaves it to them. `deferredClaimsMax` bounds what is kept meanwhile.
   */
  deferHashCheck?: boolean;
  deferredClaimsMax?: number;
  /**
   * Sees every entry's line as it is read, on open, refreshes and reloads (a secret scanner).
   * `restart` is told when a reading starts over from byte 0, or resumes a kept one after `line`;
   * `restoredLines` gives the sink for the restored lines, which the kept index's check reads again;
   * `closed` is told when the ledger closes its file.
   */
  lineSink?: LineSink & {
    restart(fromLine: number): void;
    restoredLines?(): RestoredLineSink | null;
    closed?(): void;
  };
}

/** How a synchronous read (the CLI, tests) may be told to read. */
export type SyncOpenOptions = Pick<OpenOptions, 'noteFullCosts' | 'deferHashCheck' | 'deferredClaimsMax'>;

/** What a refresh is told besides how to read. */
export interface RefreshOptions extends OpenOptions {
  /**
   * A change event told that the file changed (a watcher): a refresh that finds no new byte then
   * checks the bytes already read (a rewrite in place keeps the size), unless the file's stamp
   * shows no write since they were read.
   */
  changed?: boolean;
}

/** What a deferred hash check found: the hash_mismatch warnings it added. */
export interface HashCheckResult {
  mismatches: number;
}

/** What a refresh found. `reloaded` means append-only was broken and the file was read again. */
export type RefreshResult =
  | { kind: 'unchanged' }
  | { kind: 'appended'; firstNew: number; newEntries: number; bytes: number }
  | { kind: 'reloaded'; reason: 'shrunk' | 'rewritten' };

/** Counted work of one open ledger (work-count invariants: bytes and parses, never timings). */
export interface LedgerStats {
  /** Bytes read from the file for any purpose: indexing, payloads, append-only checks. */
  bytesRead: number;
  /** Physical lines the reader indexed (every read from byte 0 counts again). */
  linesParsed: number;
  /** Entries parsed and validated from their line (`entry()` cache misses). */
  entriesMaterialised: number;
}
