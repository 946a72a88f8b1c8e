/**
 * The hash chain of a first read, checked after it instead of during it ("open → the
 * active leaf's panes"). A hash mismatch changes nothing a leaf shows (§8: such an entry is still
 * kept, counts, and can be a parent or the active leaf), so a big session's first open can answer
 * before it has hashed every line: sha256 was ~15 % of that open. While the read goes on, the
 * reader keeps what each valid entry claims as its `prev_hash` (the string JSON.parse made: a copy
 * that holds no part of the line alive, ~100 bytes an entry); the check then reads the same lines
 * again, hashes them, and raises the `hash_mismatch` warnings and flags an inline check would have
 * raised, so afterwards nothing tells the two readings apart.
 *
 * What is not deferred: the hash of the last line read (a writer links to it and a refresh checks
 * append-only against it) is taken at the end of every chunk, and a reader that has recorded
 * `maxClaims` entries hashes inline from then on.
 */
import { hash } from 'node:crypto';
import type { ByteSource } from './byte-source';
import { grow } from './growable';
import { F_HASH_MISMATCH, type LedgerIndex } from './ledger-index';
import type { LedgerWarning } from './warnings';

/**
 * Entries whose claims are kept before a reader hashes inline again (~6 MB of claims: a 100 MB
 * session's ~36k entries all deferred, where 32k left its last tenth hashed as read, ~20 ms; the
 * 1M-entry bench session's peak memory stays within its goal). Kept as the strings JSON.parse made:
 * decoding them to 32 bytes each took more time than it saved the collector.
 */
export const MAX_DEFERRED_CLAIMS = 1 << 16;

/** Bytes read back per block by a check (the lines of a block are hashed from one read). */
const BLOCK = 1 << 20;
/** Entry slot of a claim made by a duplicate line (skipped, not in the index, still hash-checked). */
const NOT_INDEXED = -1;

/**
 * The lines a reader read without hashing them: from line 1 (a first read: nothing to link to
 * before it) to `lastLine`, and what each valid entry among them claims as its prev_hash.
 */
export class DeferredHashCheck {
  /** Last physical line read without hashing (1-based), and its offset (-1 before any). */
  lastLine = -1;
  lastOffset = -1;

  // Per claim, in line order (one per valid entry line of the region).
  private claimLine = new Int32Array(1024);
  private claimEntry = new Int32Array(1024);
  private readonly claims: (string | null)[] = [];
  /** Ids of claims by duplicate lines (not in the index), by claim number. */
  private readonly duplicateIds = new Map<number, string>();
  private walker: HashWalk | null = null;

  constructor(readonly maxClaims = MAX_DEFERRED_CLAIMS) {}

  /** The reader read physical line `line` at `offset` without hashing it. */
  lineRead(line: number, offset: number): void {
    this.lastLine = line;
    this.lastOffset = offset;
  }

  /** Enough claims are kept: the reader hashes inline from the next line on. */
  get full(): boolean {
    return this.claims.length >= this.maxClaims;
  }

  /** A valid entry on `line` (index slot `entry`, or -1 for a skipped duplicate) claims `prev` as its prev_hash. */
  claim(line: number, entry: number, prev: string | null, id: string): void {
    const k = this.claims.length;
    if (k >= this.claimLine.length) {
      this.claimLine = grow(this.claimLine, k + 1, Int32Array);
      this.claimEntry = grow(this.claimEntry, k + 1, Int32Array);
    }
    this.claimLine[k] = line;
    this.claimEntry[k] = entry;
    if (entry === NOT_INDEXED) this.duplicateIds.set(k, id);
    this.claims.push(prev);
  }

  /**
   * The check of the region: a walk over its lines that raises, in steps, what an inline check
   * would have (`HashWalk.step`); the same walk on every call. The region is fixed from the first
   * call on: the reader must hash inline before it reads another line (LineReader.endDeferral).
   */
  walk(source: ByteSource, index: LedgerIndex): HashWalk {
    this.walker ??= new HashWalk(this, source, index);
    return this.walker;
  }

  /** @internal for HashWalk: checks the claim of `line` (if any) against `expected`; returns the next claim number. */
  checkLine(
    k: number,
    line: number,
    offset: number,
    expected: string | null,
    index: LedgerIndex,
    out: LedgerWarning[],
  ): number {
    if (k >= this.claims.length || this.claimLine[k] !== line) return k;
    const claim = this.claims[k];
    if (claim !== expected) {
      const entry = this.claimEntry[k];
      if (entry !== NOT_INDEXED) index.flags[entry] |= F_HASH_MISMATCH;
      out.push({
        code: 'hash_mismatch',
        line,
        offset,
        message: `prev_hash ${claim} != ${expected}`,
        id: entry === NOT_INDEXED ? (this.duplicateIds.get(k) ?? '') : index.ids[entry],
      });
    }
    return k + 1;
  }
}

/**
 * One check of a DeferredHashCheck's region: lines `1 … lastLine - 1` are read back from
 * the file in blocks and hashed (each links the claim of the line after it); `lastLine`'s own hash
 * is the reader's, taken when it was read.
 */
export class HashWalk {
  /** The next line to hash, its offset, and what the line before it hashed to (line 1 links to nothing). */
  private line = 1;
  private offset = 0;
  private expected: string | null = null;
  private k = 0;
  private readonly found: LedgerWarning[] = [];
  private done = false;
  /** One read buffer for the whole walk (grown only for a line longer than a block). */
  private buf = Buffer.allocUnsafe(BLOCK);

  constructor(
    private readonly check: DeferredHashCheck,
    private readonly source: ByteSource,
    private readonly index: LedgerIndex,
  ) {}

  /**
   * Hashes the region's next whole lines in about `maxBytes` (at least one line). Returns null
   * while there is more, else the hash_mismatch warnings (their flags set in the index).
   */
  step(maxBytes: number): LedgerWarning[] | null {
    if (this.done) return this.found;
    const c = this.check;
    // Every line before the last ends with its `\n` before the last line's offset.
    const end = c.lastOffset;
    const stop = this.offset + maxBytes;
    let want = BLOCK;
    while (this.line < c.lastLine) {
      if (this.offset >= stop) return null;
      if (this.buf.length < want) this.buf = Buffer.allocUnsafe(want);
      const len = Math.min(want, end - this.offset);
      const got = this.source.readInto(this.buf, this.offset, len);
      const block = this.buf.subarray(0, got);
      let pos = 0;
      while (this.line < c.lastLine) {
        const nl = block.indexOf(10, pos);
        if (nl < 0) break;
        this.k = c.checkLine(this.k, this.line, this.offset + pos, this.expected, this.index, this.found);
        this.expected = hash('sha256', block.subarray(pos, nl), 'hex');
        this.line++;
        pos = nl + 1;
      }
      this.offset += pos;
      if (pos > 0) want = BLOCK;
      else if (got < len || len === end - this.offset) {
        // Bytes missing, or no `\n` where the reader saw one: the file changed under us. Its next
        // refresh reads it again from byte 0 (append-only broken), with a new reader; this check
        // ends here.
        this.done = true;
        return this.found;
      } else want = len * 2; // a line longer than the block
    }
    // The region's last line: its claim links the line before; its own hash the reader took.
    if (c.lastLine >= 1) {
      this.k = c.checkLine(this.k, c.lastLine, c.lastOffset, this.expected, this.index, this.found);
    }
    this.done = true;
    return this.found;
  }
}
