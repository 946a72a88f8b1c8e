import { hash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { isControlSet, isObject, type Json } from './entry-types';
import type { ValidLine } from './entry-validate';
import type { DeferredHashCheck } from './hash-check';
import { JsonSkim, type LongStrings } from './json-skim';
import {
  F_ASSISTANT,
  F_CONTROL,
  F_HASH_MISMATCH,
  F_MESSAGE,
  F_RESET,
  F_TOOL,
  F_USAGE,
  F_USER,
  KIND,
  kindCode,
  LedgerIndex,
  NO_PARENT,
  ORPHAN,
  UNKNOWN_KIND,
} from './ledger-index';
import type { LedgerWarning } from './warnings';
import { WorkNotes } from './work-notes';

/**
 * What a reader hands each parsed message's content to, when its ledger keeps per-line facts for
 * projection (`FullNotes` is one). The reader owns this shape, so it imports nothing of projection.
 */
export interface LineNotes {
  add(index: LedgerIndex, i: number, content: readonly Json[] | undefined, long: LongStrings | null): void;
}

/**
 * What else sees each accepted entry's line as it is read (a secret scanner): the bytes are a
 * view valid only during the call, so a sink that keeps them copies them.
 */
export interface LineSink {
  entryLine(bytes: Buffer, lineNo: number, index: LedgerIndex, i: number): void;
}

/** A sink for the lines a kept index restored, fed by the check that reads them again. */
export interface RestoredLineSink extends LineSink {
  /** The check's read ended: `complete` when it read every restored line. */
  finished(complete: boolean): void;
}

/**
 * Validates complete physical lines (LEDGER.md §2, §8) and adds the accepted
 * entries to a LedgerIndex. It never stops at bad input: a line it cannot use
 * is reported and skipped, and still counts for the hash chain.
 *
 * Lines arrive through `line()` from a LineFeeder, which owns chunking; this
 * class keeps no reference to the bytes it is given.
 */
export class LineReader<Notes extends LineNotes = LineNotes> {
  /** Physical lines completed so far. */
  lines = 0;
  /** Hash of the last complete line (what the next line's prev_hash must be). */
  prevHash: string | null = null;
  /** File offset and byte length of the last complete line (for the append-only check). */
  lastLineOffset = -1;
  lastLineLength = 0;
  readonly warnings: LedgerWarning[] = [];
  /**
   * While set, lines are read without hashing them: valid entries' prev_hash claims are kept for
   * a check after the read (hash-check.ts), and `prevHash` is brought up to date at the end of
   * each chunk (`endOfChunk`) from the last line seen.
   */
  private deferred: DeferredHashCheck | null = null;
  /** The last line read while deferring, not hashed yet: a view valid until the chunk ends. */
  private unhashed: Buffer | null = null;
  /** Sees every accepted entry's line (Ledger sets it from OpenOptions.lineSink). */
  sink: LineSink | null = null;
  /** The work entries' events, from this parse (work-notes.ts): the work fold reads no line again. */
  readonly work = new WorkNotes();

  /**
   * `notes`: messages' Full costs noted from this parse (full-notes.ts), when the ledger keeps them.
   * `skim`: what leaves long strings out of the parse (json-skim.ts; tests give it other thresholds).
   */
  constructor(
    readonly index: LedgerIndex,
    readonly notes: Notes | null = null,
    private readonly skim = new JsonSkim(),
  ) {}

  /** One complete line: `bytes` without its `\n`, starting at file `offset`. */
  line(bytes: Buffer, offset: number): void {
    const lineNo = ++this.lines;
    const expectedPrev = this.prevHash;
    const deferred = this.deferred;
    if (deferred === null) this.prevHash = hash('sha256', bytes, 'hex');
    else {
      deferred.lineRead(lineNo, offset);
      if (deferred.full) {
        // Enough claims kept: this line is the region's last, the next one is checked inline.
        this.deferred = null;
        this.unhashed = null;
        this.prevHash = hash('sha256', bytes, 'hex');
      } else this.unhashed = bytes;
    }
    this.lastLineOffset = offset;
    this.lastLineLength = bytes.length;

    // No closures in here: this runs once per line of files with millions of lines.

    let obj: unknown;
    if (!isUtf8(bytes)) {
      addWarning(this, lineNo, offset, 'torn_line', 'line is not valid UTF-8');
    } else {
      try {
        // Its long strings only measured (json-skim.ts): parses exactly when the line does.
        obj = JSON.parse(this.skim.text(bytes));
      } catch {
        addWarning(this, lineNo, offset, 'torn_line', 'line is not valid JSON');
      }
    }
    if (obj === undefined) {
      if (lineNo === 1) addWarning(this, lineNo, offset, 'missing_header', 'line 1 is not a valid header');
      return;
    }

    const rawId = isObject(obj) ? obj['id'] : undefined;
    const id = typeof rawId === 'string' ? rawId : undefined;
    if (!isValidEntry(obj)) {
      addWarning(
        this,
        lineNo,
        offset,
        'invalid_entry',
        'not an object with id, parent_id, ts, prev_hash, kind of the right types',
        id,
      );
      if (lineNo === 1) addWarning(this, lineNo, offset, 'missing_header', 'line 1 is not a valid header', id);
      return;
    }
    const entryId = obj.id;

    let flags = 0;
    if (deferred === null && obj.prev_hash !== expectedPrev) {
      flags |= F_HASH_MISMATCH;
      addWarning(this, lineNo, offset, 'hash_mismatch', `prev_hash ${obj.prev_hash} != ${expectedPrev}`, entryId);
    }
    const index = this.index;
    const first = index.repeatOf(entryId);
    if (first !== undefined) {
      deferred?.claim(lineNo, -1, obj.prev_hash, entryId);
      // Never line 1: no id was accepted before it.
      addWarning(this, lineNo, offset, 'duplicate_id', `id first seen on line ${index.line[first]}; skipped`, entryId);
      return;
    }

    let parentIdx = NO_PARENT;
    if (obj.parent_id !== null) {
      const p = index.recentIndexOf(obj.parent_id);
      if (p === undefined) {
        parentIdx = ORPHAN;
        addWarning(this, lineNo, offset, 'orphan', `parent ${obj.parent_id} is no earlier valid entry`, entryId);
      } else parentIdx = p;
    }
    if (lineNo === 1 && obj.kind !== 'header') {
      addWarning(this, lineNo, offset, 'missing_header', `line 1 has kind ${obj.kind}`, entryId);
    }
    const kind = kindCode(obj.kind);
    if (kind === UNKNOWN_KIND)
      addWarning(this, lineNo, offset, 'unknown_kind', `unknown kind ${obj.kind}; kept as a raw entry`, entryId);

    let usage: Record<string, unknown> | undefined;
    let content: Json[] | undefined;
    if (kind === KIND.message) {
      const m = obj['message'];
      if (isObject(m) && Array.isArray(m['content'])) {
        content = m['content'];
        const role = m['role'];
        if (role === 'user') flags |= F_MESSAGE | F_USER;
        else if (role === 'assistant') flags |= F_MESSAGE | F_ASSISTANT;
        else if (role === 'tool') flags |= F_MESSAGE | F_TOOL;
      }
      const meta = obj['meta'];
      if (isObject(meta)) {
        // §8: meta.control makes a control nudge only on a user message.
        if (flags & F_USER && isControlSet(meta['control'])) flags |= F_CONTROL;
        const u = meta['usage'];
        if (isObject(u) && (typeof u['input_tokens'] === 'number' || typeof u['output_tokens'] === 'number')) {
          usage = u;
          flags |= F_USAGE;
        }
      }
    }

    let route: string | undefined;
    let range: [string, string] | undefined;
    if (kind === KIND.compaction) {
      if (obj['reset_all'] === true) flags |= F_RESET;
      const p = obj['packet'];
      if (isObject(p) && typeof p['first_turn_id'] === 'string' && typeof p['last_turn_id'] === 'string') {
        range = [p['first_turn_id'], p['last_turn_id']];
      }
    } else if (kind === KIND.turn_card) {
      const c = obj['turn_card'];
      if (isObject(c) && typeof c['turn_id'] === 'string') route = c['turn_id'];
    } else if (kind === KIND.presentation) {
      const p = obj['presentation'];
      if (isObject(p) && typeof p['tool_use_id'] === 'string') route = p['tool_use_id'];
    }

    const i = index.add(entryId, parentIdx, kind, flags, lineNo, offset, bytes.length);
    deferred?.claim(lineNo, i, obj.prev_hash, entryId);
    if (route !== undefined) index.routeKey.set(i, route);
    if (range !== undefined) index.packetRange.set(i, range);
    if (parentIdx === ORPHAN) index.orphanParent.set(i, obj.parent_id as string);
    if (kind === UNKNOWN_KIND) index.unknownKind.set(i, obj.kind);
    if (usage) {
      const slot = i * 4;
      index.usage[slot] = tokenCount(usage['input_tokens']);
      index.usage[slot + 1] = tokenCount(usage['output_tokens']);
      index.usage[slot + 2] = tokenCount(usage['cache_read_tokens']);
      index.usage[slot + 3] = tokenCount(usage['cache_write_tokens']);
    }
    if (lineNo === 1 && kind === KIND.header) index.header = i;
    // A line parsed skimmed holds placeholders: its event is left to a parse of its line.
    if (kind === KIND.work && this.skim.long.count === 0) this.work.add(i, obj as ValidLine);
    if (this.notes) this.notes.add(index, i, content, this.skim.long.count > 0 ? this.skim.long : null);
    if (this.sink) this.sink.entryLine(bytes, lineNo, index, i);
  }

  /**
   * Reads the lines from here on without hashing them, keeping what they claim for `check`
   * (a reader that has read no line yet, or whose `prevHash` is that of its last line).
   */
  deferHashes(check: DeferredHashCheck): void {
    this.deferred = check;
  }

  /**
   * Hashes every line from here on as it is read: the deferred check's region ends with the last
   * line read. Between chunks only (the feeder's `endOfChunk` ran: `prevHash` is that line's).
   */
  endDeferral(): void {
    this.endOfChunk();
    this.deferred = null;
  }

  /** The feeder ends a chunk: the last line seen is hashed while its view is still valid. */
  endOfChunk(): void {
    if (this.unhashed === null) return;
    this.prevHash = hash('sha256', this.unhashed, 'hex');
    this.unhashed = null;
  }
}

function addWarning(
  reader: LineReader,
  line: number,
  offset: number,
  code: LedgerWarning['code'],
  message: string,
  id?: string,
): void {
  const w: LedgerWarning = { code, line, offset, message };
  if (id !== undefined) w.id = id;
  reader.warnings.push(w);
}

interface ValidEntry {
  id: string;
  parent_id: string | null;
  ts: string;
  prev_hash: string | null;
  kind: string;
  [k: string]: unknown;
}

/** §8 invalid_entry: an object with the five common fields of the right types. */
function isValidEntry(v: unknown): v is ValidEntry {
  if (!isObject(v)) return false;
  const p = v['parent_id'];
  const h = v['prev_hash'];
  return (
    typeof v['id'] === 'string' &&
    (p === null || typeof p === 'string') &&
    typeof v['ts'] === 'string' &&
    (h === null || typeof h === 'string') &&
    typeof v['kind'] === 'string'
  );
}

/** A usage count as stored (a whole number ≥ 0; anything else counts 0). */
function tokenCount(v: unknown): number {
  return typeof v === 'number' && v > 0 ? Math.min(Math.round(v), 0xffffffff) : 0;
}
