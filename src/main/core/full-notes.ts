/**
 * What each message entry costs at Full fidelity (§5.3), noted by the reader from the parse it
 * does anyway: a first open's active leaf then learns its closed turns'
 * costs from these numbers instead of reading and parsing every message of the chain again
 * (on a 100 MB session that second parse was half of "open → the active leaf's panes").
 *
 * A note holds only what does not depend on the leaf:
 * - the entry's tokens at one bytes_per_token (the ledger's default profile), or that it shapes
 *   to nothing (a control nudge, a message of thinking only);
 * - the ids of its card-call candidates (tool_use blocks with a string id): a chain holding a
 *   presentation for one of them shapes that entry with an ack instead (that entry alone is then
 *   shaped from its line: an assistant message, small), and the turn cache indexes the others as
 *   unacked;
 * - the tool names its computed digests need (§5: the nearest call before the result) are
 *   resolved while noting, and only when exact: the newest call in file order with that id is an
 *   ancestor of the result (an ancestor nearer than it would be newer still), or no entry read
 *   before the result calls that id (then none of its ancestors does: `unknown`). Anything else
 *   (a call on another branch, far above, read before a resume) leaves the entry without a note.
 *
 * An entry without a note is shaped from its line, as before: notes only ever save a parse.
 */
import { isObject, type Json } from './entry-types';
import { fullTokensWithoutAcks } from './full-fidelity';
import { grow } from './growable';
import type { LongStrings } from './json-skim';
import { RECORD_INTS } from './json-skim-lexer';
import { F_ASSISTANT, F_CONTROL, F_MESSAGE, F_USER, type LedgerIndex } from './ledger-index';

/** `tokens` slot values that are no token count. */
const NO_NOTE = -1; // not noted: shape it from its line
const NOTHING = -2; // shapes to no message at Full

const NO_CALLS: readonly string[] = [];

/**
 * Named calls remembered per generation for name lookups: results follow their calls closely, so
 * two generations of this many (the older dropped when the newer fills) keep this map small.
 */
const CALLS_PER_GENERATION = 8192;
/** Parent steps from a result up to its call (results follow their calls: usually one). */
const MAX_STEPS = 64;

export class FullNotes {
  /** Per entry: its tokens at Full, NOTHING, or NO_NOTE. */
  private tokens = new Int32Array(1024).fill(NO_NOTE);
  /**
   * Card-call candidates' tool_use ids of all noted entries, in entry order, flat (a few bytes
   * each: at 1M entries an array per entry cost ~40 MB), and per entry the end of its own in
   * `callIds` (they start where the previous noted entry's end).
   */
  private readonly callIds: string[] = [];
  private callEnd = new Int32Array(1024);
  /**
   * The long strings of the noted entries' skimmed lines (json-skim.ts), RECORD_INTS each (token
   * start and end in the line, its measures), flat in entry order, and per entry the end of its
   * own: a one-pass reader that skims the line again takes them instead of measuring again.
   */
  private measures = new Int32Array(1024);
  private measuresLength = 0;
  private measureEnd = new Int32Array(1024);
  /** One past the last entry noted (`add` notes entries in order). */
  private notedTo = 0;
  /** The first entry noted (the first read after a resume: the ones before have no note). */
  private firstNoted = -1;
  /** tool_use_id → [newest assistant entry calling it with a string name, that name] (first such block in it). */
  private named = new Map<string, [number, string]>();
  private olderNamed = new Map<string, [number, string]>();
  /** Whether a generation of names was dropped: a call missing from them may have been forgotten. */
  private forgotten: boolean;

  /**
   * `fromStart`: this reader reads the file from its first line (not resumed after a kept index).
   * `callsPerGeneration`: only tests ask for another (to see generations dropped).
   */
  constructor(
    readonly bytesPerToken: number,
    fromStart: boolean,
    private readonly callsPerGeneration = CALLS_PER_GENERATION,
  ) {
    this.forgotten = !fromStart;
  }

  /**
   * Notes accepted entry `i`, a well-formed message (flag F_MESSAGE) from its parsed `content`;
   * any other entry shapes to nothing. Never throws: what cannot be noted is shaped from its line.
   * `long`: the line was parsed skimmed (json-skim.ts): what its placeholders stand for.
   */
  add(index: LedgerIndex, i: number, content: readonly Json[] | undefined, long: LongStrings | null = null): void {
    if (i >= this.tokens.length) {
      const old = this.tokens.length;
      this.tokens = grow(this.tokens, i + 1, Int32Array);
      this.tokens.fill(NO_NOTE, old);
      this.callEnd = grow(this.callEnd, i + 1, Int32Array);
      this.measureEnd = grow(this.measureEnd, i + 1, Int32Array);
    }
    if (this.firstNoted < 0) this.firstNoted = i;
    try {
      this.note(index, i, content, long);
    } finally {
      this.callEnd[i] = this.callIds.length;
      if (long !== null) this.keepMeasures(long);
      this.measureEnd[i] = this.measuresLength;
      this.notedTo = i + 1;
    }
  }

  private keepMeasures(long: LongStrings): void {
    const at = this.measuresLength;
    this.measures = grow(this.measures, at + long.count * RECORD_INTS, Int32Array);
    const m = this.measures;
    for (let k = 0; k < long.count; k++) {
      const r = at + k * RECORD_INTS;
      m[r] = long.starts[k];
      m[r + 1] = long.ends[k];
      m[r + 2] = long.bytes[k];
      m[r + 3] = long.newlines[k];
      m[r + 4] = long.endsNewline[k];
    }
    this.measuresLength = at + long.count * RECORD_INTS;
  }

  /** The long strings measured in entry `i`'s line when it was read (RECORD_INTS each), or null. */
  measuresOf(i: number): Int32Array | null {
    if (i < this.firstNoted || i >= this.notedTo) return null;
    const start = i > this.firstNoted ? this.measureEnd[i - 1] : 0;
    return start === this.measureEnd[i] ? null : this.measures.subarray(start, this.measureEnd[i]);
  }

  private note(index: LedgerIndex, i: number, content: readonly Json[] | undefined, long: LongStrings | null): void {
    const flags = index.flags[i];
    if ((flags & F_MESSAGE) === 0 || content === undefined || flags & F_CONTROL) {
      this.tokens[i] = NOTHING;
      return;
    }
    try {
      if (flags & F_ASSISTANT) this.noteCalls(i, content);
      const noting = this.noting;
      noting.index = index;
      noting.i = i;
      noting.unresolved = false;
      const role = flags & F_ASSISTANT ? 'assistant' : flags & F_USER ? 'user' : 'tool';
      const tokens = fullTokensWithoutAcks(role, content, this.nameOfNoting, this.bytesPerToken, long);
      if (this.noting.unresolved) return; // (read again: nameOfNoting sets it)
      this.tokens[i] = tokens === null ? NOTHING : tokens;
    } catch {
      // left without a note
    }
  }

  /**
   * The entry being noted, for `nameOfNoting`: one function and one record for every entry (this
   * runs once per line of files with millions of lines: nothing allocated per line, as in the reader).
   */
  private readonly noting: { index: LedgerIndex | null; i: number; unresolved: boolean } = {
    index: null,
    i: -1,
    unresolved: false,
  };
  private readonly nameOfNoting = (id: string): string => {
    const n = this.noting;
    const name = n.index === null ? null : this.nameFor(n.index, n.i, id);
    if (name === null) n.unresolved = true;
    return name ?? '';
  };

  /**
   * Entry `i`'s Full tokens at `bpt` as noted: a count, null when it shapes to no message, or
   * undefined when it has no note (or the notes are of another bytes_per_token).
   */
  tokensOf(i: number, bpt: number): number | null | undefined {
    if (bpt !== this.bytesPerToken || i >= this.tokens.length) return undefined;
    const t = this.tokens[i];
    return t === NO_NOTE ? undefined : t === NOTHING ? null : t;
  }

  /** Entry `i`'s card-call candidates (tool_use ids), when it has a note. */
  callsOf(i: number): readonly string[] {
    if (i < this.firstNoted || i >= this.tokens.length || this.tokens[i] === NO_NOTE) return NO_CALLS;
    const start = i > this.firstNoted ? this.callEnd[i - 1] : 0;
    // Most entries make no call: no array for them (a leaf asks for every entry of its chain).
    return start === this.callEnd[i] ? NO_CALLS : this.callIds.slice(start, this.callEnd[i]);
  }

  /**
   * Looks entry `i`'s card-call candidates up in `presentations`, recording each in `seen` (its
   * presentation entry, or -1 for none); whether one of them is presented. As `callsOf`, without
   * an array per entry (a first leaf asks this of every entry of its chain).
   */
  lookUpCalls(i: number, presentations: ReadonlyMap<string, number>, seen: Map<string, number>): boolean {
    if (i < this.firstNoted || i >= this.tokens.length || this.tokens[i] === NO_NOTE) return false;
    const start = i > this.firstNoted ? this.callEnd[i - 1] : 0;
    let presented = false;
    for (let k = start; k < this.callEnd[i]; k++) {
      const id = this.callIds[k];
      const p = presentations.get(id);
      seen.set(id, p ?? -1);
      if (p !== undefined) presented = true;
    }
    return presented;
  }

  /** Entry `i`'s card-call candidates, and its named calls for later results' digests. */
  private noteCalls(i: number, content: readonly Json[]): void {
    for (const b of content) {
      if (!isObject(b) || b['type'] !== 'tool_use' || typeof b['id'] !== 'string') continue;
      const id = b['id'];
      this.callIds.push(id);
      const name = b['name'];
      // §5 toolNameFor: the first block with that id and a string name in the nearest entry.
      if (typeof name === 'string' && this.named.get(id)?.[0] !== i && this.olderNamed.get(id)?.[0] !== i) {
        if (this.named.size >= this.callsPerGeneration) {
          this.olderNamed = this.named;
          this.named = new Map();
          this.forgotten = true;
        }
        this.named.set(id, [i, name]);
      }
    }
  }

  /** The tool name a result in entry `i` gets for `id`, or null when it cannot be told exactly here. */
  private nameFor(index: LedgerIndex, i: number, id: string): string | null {
    const call = this.named.get(id) ?? this.olderNamed.get(id);
    // No named call with that id read before this entry: none is its ancestor either (§5: unknown).
    if (call === undefined) return this.forgotten ? null : 'unknown';
    const [at, name] = call;
    let p = index.parent[i];
    for (let steps = 0; p > at && steps < MAX_STEPS; steps++) p = index.parent[p];
    return p === at ? name : null;
  }
}
