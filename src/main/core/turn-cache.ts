/**
 * What a closed turn costs at Full fidelity, kept per ledger index so neighbouring leaves
 * (which share every closed turn) shape each turn once. Numbers only, never message bodies:
 * a page of the projected pane shapes its own turns again from the ledger.
 *
 * Keyed by the turn's first and last entry (the path between them is fixed by parent links,
 * so that is the turn's whole entry list) and bytes_per_token. A Full shape also depends on
 * the chain's card calls (§5.3 acks: the newest presentation in the chain wins, which can
 * be after the turn); the presentations a shape looked up are kept with it and checked on
 * reuse. Tool names (§5) come from the chain before the turn, fixed by the directive.
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
  tokens: number;
  /** Entry index behind message k of the turn at Full (ascending: chain order is file order). */
  sources: Int32Array;
  /** tool_use_id → the presentation entry its ack came from (-1: none), as looked up when shaped. */
  acks: ReadonlyMap<string, number>;
}

/** Most turns kept per index before the cache starts over (a bound, not a tuning knob). */
const MAX_TURNS = 500_000;

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
  private readonly full = new Map<string, FullTurnFacts>();
  /** Small per-index facts that cost a parse each (card and packet tokens, header tokens). */
  private readonly small = new Map<string, number>();

  /** The Full cost of a closed turn of `ctx`'s chain (directive at chain position `firstPos`). */
  fullFacts(ledger: Ledger, ctx: ChainContext, turn: Turn, firstPos: number, bpt: number): FullTurnFacts {
    const first = turn.entries[0];
    const last = turn.entries[turn.entries.length - 1];
    const key = `${first}:${last}:${bpt}`;
    const have = this.full.get(key);
    if (have && acksHold(have.acks, ctx)) {
      this.stats.turnsReused++;
      return have;
    }
    this.stats.turnsProjected++;
    const seen = new Map<string, number>();
    const recording: ChainContext = { ...ctx, presentations: new RecordingLookups(ctx.presentations, seen) };
    const msgs = fullTurn(ledger, recording, turn, firstPos, bpt);
    const sources = new Int32Array(msgs.length);
    let tokens = 0;
    msgs.forEach((m, k) => {
      tokens += m.tokens;
      sources[k] = ledger.index.byId.get(m.source_ids[0]) ?? -1;
    });
    const facts: FullTurnFacts = { tokens, sources, acks: seen };
    if (this.full.size >= MAX_TURNS) this.full.clear();
    this.full.set(key, facts);
    return facts;
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
}

function acksHold(acks: ReadonlyMap<string, number>, ctx: ChainContext): boolean {
  for (const [id, entry] of acks) if ((ctx.presentations.get(id) ?? -1) !== entry) return false;
  return true;
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
