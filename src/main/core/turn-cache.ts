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
 * An append keeps the cache (the index only grows); a reload makes a new index, and so a
 * new cache.
 */
import type { ChainContext } from './chain-context';
import type { Ledger } from './ledger';
import type { LedgerIndex } from './ledger-index';
import { fullTurn } from './message-shapes';
import type { Turn } from './turn-index';

/** Counted work of the projection, for the work-count invariants (never timings). */
export interface TurnCacheStats {
  /** Closed turns shaped at Full to learn their cost. */
  turnsProjected: number;
  /** Closed turns whose cost came from the cache. */
  turnsReused: number;
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
  readonly stats: TurnCacheStats = { turnsProjected: 0, turnsReused: 0 };
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
    const recording: ChainContext = { ...ctx, presentations: new RecordingLookups(ctx.presentations, seen) };
    const msgs = fullTurn(ledger, recording, turn, firstPos, bpt, true);
    const sources = new Int32Array(msgs.length);
    let tokens = 0;
    msgs.forEach((m, k) => {
      tokens += m.tokens;
      sources[k] = ledger.index.byId.get(m.source_ids[0]) ?? -1;
    });
    let acks: Map<string, number> | null = null;
    for (const [id, entry] of seen) if (entry >= 0) (acks ??= new Map()).set(id, entry);
    const facts: FullTurnFacts = { last, bpt, tokens, sources, acks: acks ?? NO_ACKS };
    if (this.fullCount >= MAX_TURNS) {
      this.full.clear();
      this.unacked.clear();
      this.fullCount = 0;
      variants = undefined;
    }
    for (const [id, entry] of seen) {
      if (entry >= 0) continue;
      const list = this.unacked.get(id);
      if (list === undefined) this.unacked.set(id, facts);
      else if (Array.isArray(list)) list.push(facts);
      else this.unacked.set(id, [list, facts]);
    }
    if (!variants) this.full.set(first, (variants = []));
    variants.push(facts);
    this.fullCount++;
    return facts;
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
    for (const id of ctx.presentations.keys()) {
      const list = this.unacked.get(id);
      if (list === undefined) continue;
      if (Array.isArray(list)) for (const f of list) facts.add(f);
      else facts.add(list);
    }
    this.stale = { ctx, facts };
    return facts;
  }
}

const caches = new WeakMap<LedgerIndex, TurnCache>();

/** The turn cache of a ledger's current index (a reload gives a new index and an empty cache). */
export function turnCacheOf(ledger: Ledger): TurnCache {
  let c = caches.get(ledger.index);
  if (!c) {
    c = new TurnCache();
    caches.set(ledger.index, c);
  }
  return c;
}
