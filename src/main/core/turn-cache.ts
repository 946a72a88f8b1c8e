/**
 * What a closed turn costs at Full fidelity, kept per ledger index so neighbouring leaves
 * (which share every closed turn) shape each turn once. Numbers only, never message bodies:
 * a page of the projected pane shapes its own turns again from the ledger.
 *
 * Keyed by the turn's first and last entry (the path between them is fixed by parent links,
 * so that is the turn's whole entry list) and bytes_per_token. A Full shape also depends on
 * the chain's card calls (§5.3 acks: the newest presentation in the chain wins, which can
 * be after the turn); the presentations a shape looked up are checked on reuse: the few that
 * acked are kept with it, the card calls that had no presentation in an index by tool_use_id,
 * so a leaf checks its chain's presentations (hundreds) rather than every tool call of every
 * turn (tens of thousands in a 100 MB session). Tool names (§5) come from the chain before the
 * turn, fixed by the directive.
 * An append keeps the cache (it changes no entry read before); a new reading (Ledger.generation:
 * a reload, a rewrite found in place) starts a new cache.
 */
import type { ChainContext } from './chain-context';
import type { Ledger } from './ledger';
import type { LedgerIndex } from './ledger-index';
import { fullMessage } from './full-fidelity';
import { FACT_INTS, type KeptTurns, type TurnColumns } from './kept-turns';
import { PerReading } from './per-reading';
import { fullTurn } from './message-shapes';
import { messageTokens } from './tokens';
import type { Turn } from './turn-index';

/** Counted work of the projection, for the work-count invariants (never timings). */
export interface TurnCacheStats {
  /** Closed turns shaped at Full to learn their cost. */
  turnsProjected: number;
  /** Closed turns whose cost came from the cache. */
  turnsReused: number;
  /**
   * Of `turnsProjected`, those costed from the reader's notes (full-notes.ts): none of their messages
   * read again but one holding a card call the chain presents.
   */
  turnsNoted: number;
}

/** A closed turn at Full as numbers: its cost, and the entry behind each of its messages. */
export interface FullTurnFacts {
  /** The turn's last entry and the bytes_per_token it was shaped at (with its first entry: the key). */
  last: number;
  bpt: number;
  tokens: number;
  /** Entry index behind message k of the turn at Full (ascending: chain order is file order). */
  sources: Int32Array;
  /**
   * tool_use_id → the presentation entry its ack came from, for the card calls that had one when
   * shaped (usually none). The calls that had none are in the cache's `unacked` index.
   */
  acks: ReadonlyMap<string, number>;
}

/** Most turns kept per index before the cache starts over (a bound, not a tuning knob). */
const MAX_TURNS = 500_000;
const NO_ACKS: ReadonlyMap<string, number> = new Map();

/** Presentations as a Map that notes every lookup, so a shape knows which card calls it depended on. */
class RecordingLookups extends Map<string, number> {
  constructor(
    private readonly inner: ReadonlyMap<string, number>,
    readonly seen: Map<string, number>,
  ) {
    super();
  }

  override get(key: string): number | undefined {
    const v = this.inner.get(key);
    this.seen.set(key, v ?? -1);
    return v;
  }
}

export class TurnCache {
  readonly stats: TurnCacheStats = { turnsProjected: 0, turnsReused: 0, turnsNoted: 0 };
  /**
   * Facts by the turn's first entry (a number: thousands of lookups per leaf build no key
   * strings), each a short list of variants: another last entry (a branch inside the turn),
   * another bytes_per_token, or other acks (branches that present its card calls differently).
   */
  private readonly full = new Map<number, FullTurnFacts[]>();
  private fullCount = 0;
  /**
   * tool_use_id → the facts shaped while no presentation named it. A chain that holds a
   * presentation for it shapes those turns differently: checked per chain from its presentations
   * (a few hundred), not per tool call of every turn (tens of thousands).
   */
  private readonly unacked = new Map<string, FullTurnFacts | FullTurnFacts[]>();
  /**
   * Pairs (tool_use_id, facts) not in `unacked` yet, in order: indexed only where every one is
   * asked for (`factsToReshape`, `export`). A first leaf shapes every closed turn and a reopen
   * restores them all from the kept index (a 1 GiB session: over a hundred thousand calls); indexing
   * them was the largest part of either's leaf view, while `staleOf` needs only the few hundred a
   * chain presents, and looks those up in this list.
   */
  private pendingIds: string[] = [];
  private pendingFacts: FullTurnFacts[] = [];
  /** Unacked calls put in `unacked` so far (the work-count tests: a first leaf puts none). */
  callsIndexed = 0;
  /** The facts the presentations of the chain context asked last make stale (a leaf asks for all its turns in a row). */
  private stale: { ctx: ChainContext; facts: Set<FullTurnFacts> } | null = null;
  /** Small per-index facts that cost a parse each (card and packet tokens, header tokens). */
  private readonly small = new Map<string, number>();

  /** The Full cost of a closed turn of `ctx`'s chain (directive at chain position `firstPos`). */
  fullFacts(ledger: Ledger, ctx: ChainContext, turn: Turn, firstPos: number, bpt: number): FullTurnFacts {
    const first = turn.entries[0];
    const last = turn.entries[turn.entries.length - 1];
    let variants = this.full.get(first);
    if (variants) {
      for (const f of variants) {
        if (f.last === last && f.bpt === bpt && this.acksHold(f, ctx)) {
          this.stats.turnsReused++;
          return f;
        }
      }
    }
    this.stats.turnsProjected++;
    const seen = new Map<string, number>();
    // Looked up through a recording view only where a message is shaped (rare from notes).
    const recording = (): ChainContext => ({ ...ctx, presentations: new RecordingLookups(ctx.presentations, seen) });
    const noted = fromNotes(ledger, ctx, seen, recording, turn, firstPos, bpt);
    let tokens: number;
    let sources: Int32Array;
    if (noted) {
      this.stats.turnsNoted++;
      ({ tokens, sources } = noted);
    } else {
      const msgs = fullTurn(ledger, recording(), turn, firstPos, bpt, true);
      tokens = 0;
      sources = new Int32Array(msgs.length);
      msgs.forEach((m, k) => {
        tokens += m.tokens;
        sources[k] = sourceEntry(ledger.index, turn, m.source_ids[0]);
      });
    }
    let acks: Map<string, number> | null = null;
    for (const [id, entry] of seen) if (entry >= 0) (acks ??= new Map()).set(id, entry);
    const facts: FullTurnFacts = { last, bpt, tokens, sources, acks: acks ?? NO_ACKS };
    if (this.fullCount >= MAX_TURNS) {
      this.full.clear();
      this.unacked.clear();
      this.pendingIds = [];
      this.pendingFacts = [];
      this.fullCount = 0;
      variants = undefined;
    }
    for (const [id, entry] of seen) {
      if (entry >= 0) continue;
      this.pendingIds.push(id);
      this.pendingFacts.push(facts);
    }
    if (!variants) this.full.set(first, (variants = []));
    variants.push(facts);
    this.fullCount++;
    return facts;
  }

  /** Closed turns' facts held (all variants). */
  get size(): number {
    return this.fullCount;
  }

  /** The facts as plain data (see KeptTurns). */
  export(): KeptTurns {
    this.indexUnacked();
    const unackedOf = new Map<FullTurnFacts, string[]>();
    for (const [id, list] of this.unacked) {
      for (const f of Array.isArray(list) ? list : [list]) {
        const ids = unackedOf.get(f);
        if (ids) ids.push(id);
        else unackedOf.set(f, [id]);
      }
    }
    const full: KeptTurns['full'] = [];
    for (const [first, variants] of this.full) {
      for (const f of variants) {
        full.push([first, f.last, f.bpt, f.tokens, Array.from(f.sources), [...f.acks], unackedOf.get(f) ?? []]);
      }
    }
    return { full, small: [...this.small] };
  }

  /**
   * A cache holding the facts of `cols` (kept with an index of `count` entries), or null when they
   * do not hold together: an entry named that the index does not hold, sources out of the turn or
   * out of order, a count past its column. One pass over flat arrays, nothing parsed: a reopen's
   * first leaf waits for this. Each fact's sources are a view of the one kept column.
   */
  static fromColumns(cols: TurnColumns, count: number): TurnCache | null {
    const { facts, bpt, sources, ackEntries, smallValues, strings } = cols;
    const n = bpt.length;
    if (facts.length !== n * FACT_INTS || n > MAX_TURNS || smallValues.length > MAX_TURNS) return null;
    const isEntry = (x: number): boolean => x >= 0 && x < count;
    const c = new TurnCache();
    let src = 0;
    let ack = 0;
    let str = 0;
    for (let k = 0; k < n; k++) {
      const at = k * FACT_INTS;
      const first = facts[at];
      const last = facts[at + 1];
      const tokens = facts[at + 2];
      const nSources = facts[at + 3];
      const nAcks = facts[at + 4];
      const nUnacked = facts[at + 5];
      const b = bpt[k];
      if (!isEntry(first) || !isEntry(last) || last < first || !(b > 0) || tokens < 0) return null;
      if (nSources < 0 || nAcks < 0 || nUnacked < 0) return null;
      if (src + nSources > sources.length || ack + nAcks > ackEntries.length) return null;
      if (str + nAcks + nUnacked > strings.length) return null;
      for (let s = src; s < src + nSources; s++) {
        const x = sources[s];
        if (x < first || x > last || (s > src && x <= sources[s - 1])) return null;
      }
      let acks: ReadonlyMap<string, number> = NO_ACKS;
      if (nAcks > 0) {
        const m = new Map<string, number>();
        for (let a = 0; a < nAcks; a++) {
          const entry = ackEntries[ack + a];
          if (!isEntry(entry)) return null;
          m.set(strings[str + a], entry);
        }
        acks = m;
      }
      const f: FullTurnFacts = { last, bpt: b, tokens, sources: sources.subarray(src, src + nSources), acks };
      src += nSources;
      ack += nAcks;
      str += nAcks;
      const variants = c.full.get(first);
      if (variants) variants.push(f);
      else c.full.set(first, [f]);
      c.fullCount++;
      for (let u = 0; u < nUnacked; u++) {
        c.pendingIds.push(strings[str + u]);
        c.pendingFacts.push(f);
      }
      str += nUnacked;
    }
    if (src !== sources.length || ack !== ackEntries.length || str + smallValues.length !== strings.length) return null;
    for (let k = 0; k < smallValues.length; k++) {
      if (!Number.isInteger(smallValues[k])) return null;
      c.small.set(strings[str + k], smallValues[k]);
    }
    return c;
  }

  /** Moves the pending unacked calls into `unacked`. */
  private indexUnacked(): void {
    const { pendingIds: ids, pendingFacts: facts, unacked } = this;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      const list = unacked.get(id);
      if (list === undefined) unacked.set(id, facts[k]);
      else if (Array.isArray(list)) list.push(facts[k]);
      else unacked.set(id, [list, facts[k]]);
    }
    this.callsIndexed += ids.length;
    this.pendingIds = [];
    this.pendingFacts = [];
  }

  /**
   * Of `facts` (shaped for a chain whose presentations were `before`), those a chain whose
   * presentations are `after` would shape otherwise: a card call whose presentation differs,
   * looked up when shaped (its ack, or none while `before` had none). The rest stand as they are.
   */
  factsToReshape(
    facts: readonly FullTurnFacts[],
    before: ReadonlyMap<string, number>,
    after: ReadonlyMap<string, number>,
  ): Set<FullTurnFacts> {
    const changed = new Set<string>();
    for (const [id, entry] of after) if (before.get(id) !== entry) changed.add(id);
    for (const id of before.keys()) if (!after.has(id)) changed.add(id);
    const out = new Set<FullTurnFacts>();
    if (changed.size === 0) return out;
    this.indexUnacked();
    for (const id of changed) {
      const list = this.unacked.get(id);
      if (list === undefined) continue;
      if (Array.isArray(list)) for (const f of list) out.add(f);
      else out.add(list);
    }
    for (const f of facts) {
      if (f.acks.size === 0) continue;
      for (const id of f.acks.keys()) if (changed.has(id)) out.add(f);
    }
    return out;
  }

  /** Counts `n` closed turns whose facts a leaf took from the leaf above it (reused without a lookup). */
  countReused(n: number): void {
    this.stats.turnsReused += n;
  }

  /** A number computed once per key (card, packet and header token costs). */
  memo(key: string, compute: () => number): number {
    const have = this.small.get(key);
    if (have !== undefined) return have;
    const v = compute();
    if (this.small.size >= MAX_TURNS) this.small.clear();
    this.small.set(key, v);
    return v;
  }

  /** The card calls a Full shape looked up still ack as they did in `ctx`'s chain. */
  private acksHold(f: FullTurnFacts, ctx: ChainContext): boolean {
    if (this.staleOf(ctx).has(f)) return false;
    if (f.acks.size === 0) return true;
    for (const [id, entry] of f.acks) if ((ctx.presentations.get(id) ?? -1) !== entry) return false;
    return true;
  }

  /**
   * The facts shaped without an ack that `ctx`'s presentations would give one (once per chain
   * context in a row). Facts shaped meanwhile under `ctx` looked its presentations up: never stale in it.
   */
  private staleOf(ctx: ChainContext): Set<FullTurnFacts> {
    if (this.stale?.ctx === ctx) return this.stale.facts;
    const facts = new Set<FullTurnFacts>();
    const shown = ctx.presentations;
    if (shown.size > 0) {
      for (const id of shown.keys()) {
        const list = this.unacked.get(id);
        if (list === undefined) continue;
        if (Array.isArray(list)) for (const f of list) facts.add(f);
        else facts.add(list);
      }
      // (the pending calls looked up where they are: see `pendingIds`)
      const { pendingIds: ids, pendingFacts: pending } = this;
      for (let k = 0; k < ids.length; k++) if (shown.has(ids[k])) facts.add(pending[k]);
    }
    this.stale = { ctx, facts };
    return facts;
  }
}

/**
 * A closed turn's Full cost from the reader's notes (full-notes.ts), or null when an entry of it
 * has none: no message read again, but an entry holding a card call the chain presents, shaped
 * from its line with its ack (a small assistant message). Every call is looked up in `ctx` and
 * recorded in `seen`; `recording` gives the context a shaped message looks its acks up in.
 * Runs per closed turn of a first leaf (thousands): plain loops, nothing allocated per entry.
 */
function fromNotes(
  ledger: Ledger,
  ctx: ChainContext,
  seen: Map<string, number>,
  recording: () => ChainContext,
  turn: Turn,
  firstPos: number,
  bpt: number,
): { tokens: number; sources: Int32Array } | null {
  const notes = ledger.fullNotes;
  const entries = turn.entries;
  if (!notes) return null;
  for (let k = 0; k < entries.length; k++) if (notes.tokensOf(entries[k], bpt) === undefined) return null;
  let tokens = 0;
  const sources = new Int32Array(entries.length);
  let n = 0;
  let shapingCtx: ChainContext | null = null;
  let shaping: { scan: boolean; names: Map<string, string> } | null = null;
  for (let k = 0; k < entries.length; k++) {
    const i = entries[k];
    if (notes.lookUpCalls(i, ctx.presentations, seen)) {
      shapingCtx ??= recording();
      shaping ??= { scan: true, names: new Map() };
      const shaped = fullMessage(ledger, shapingCtx, firstPos + k, shaping);
      if (shaped === null) continue;
      tokens += messageTokens(shaped.content, bpt);
      sources[n++] = i;
      continue;
    }
    const t = notes.tokensOf(i, bpt);
    if (t === null || t === undefined) continue;
    tokens += t;
    sources[n++] = i;
  }
  return { tokens, sources: n === entries.length ? sources : sources.slice(0, n) };
}

const caches = new PerReading<TurnCache>('turn costs');
/** Kept turn costs not read yet: read when the reading's cache is first asked for (a leaf, not the first rows). */
const pending = new PerReading<() => TurnCache>('kept turn costs');

/** How many closed turns' facts the cache holds (what a kept index would carry); none while still pending. */
export function keptTurnCount(ledger: Ledger): number {
  return caches.get(ledger)?.size ?? 0;
}

/** The turn cache of `ledger`'s reading as plain data, or null when it has none. */
export function exportTurns(ledger: Ledger): KeptTurns | null {
  const c = pending.has(ledger) ? turnCacheOf(ledger) : caches.get(ledger);
  return c && c.size > 0 ? c.export() : null;
}

/** Turn caches read from kept columns before a reopen's first leaf asked for them, by the very columns object. */
const builtAhead = new WeakMap<TurnColumns, { count: number; cache: TurnCache | null }>();

/**
 * Makes the turn costs kept as `cols` (with an index of `count` entries) the turn cache of
 * `ledger`'s index, checked only when the cache is first asked for: a reopen's first rows do not
 * wait for them. Columns that do not hold together (TurnCache.fromColumns) give an empty cache:
 * the turns are shaped again, as on a first open.
 */
export function adoptTurnColumns(ledger: Ledger, cols: TurnColumns, count: number): void {
  caches.delete(ledger);
  pending.set(ledger, () => {
    const ahead = builtAhead.get(cols);
    builtAhead.delete(cols); // a cache belongs to one reading only
    const c = ahead !== undefined && ahead.count === count ? ahead.cache : TurnCache.fromColumns(cols, count);
    return c ?? new TurnCache();
  });
}

/**
 * Reads (and checks, as TurnCache.fromColumns does) the kept turn costs `cols` of an index of `count`
 * entries now, while nothing waits: the reading that adopts these columns then takes the cache at once.
 */
export function buildTurnCacheAhead(cols: TurnColumns, count: number): void {
  if (!builtAhead.has(cols)) builtAhead.set(cols, { count, cache: TurnCache.fromColumns(cols, count) });
}

/** The turn cache of a ledger's current reading (a new reading gives an empty cache). */
export function turnCacheOf(ledger: Ledger): TurnCache {
  let c = caches.get(ledger);
  if (!c) {
    const kept = pending.get(ledger);
    pending.delete(ledger);
    c = kept ? kept() : new TurnCache();
    caches.set(ledger, c);
  }
  return c;
}

/**
 * The entry a Full message of `turn` was shaped from, by its source id: one of the turn's own
 * entries (fullTurn), found among them without the id map (a first leaf would map every id of the
 * session for the few turns it shapes from their lines).
 */
function sourceEntry(ix: LedgerIndex, turn: Turn, id: string): number {
  for (const i of turn.entries) if (ix.ids[i] === id) return i;
  return ix.indexOf(id) ?? -1;
}
