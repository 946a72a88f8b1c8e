import type { CancelSignal } from '../core/cancel';
import type { LeafRequest, PlanOutline } from '../../shared/api';
import { Lru } from '../../shared/lru';
import { KNOWN_KINDS } from '../core/entry-types';
import { F_RESET, KIND, kindCode, UNKNOWN_KIND, type LedgerIndex } from '../core/ledger-index';
import { nearestPlanned, type ChainFacts } from '../core/chain-facts';
import { planLeafSteps, type LeafPlan } from '../core/leaf-plan';
import { visibilityContext, type VisibilityContext } from '../core/visibility';
import type { OpenSession } from '../library/session-cache';
import { PerReading } from '../core/per-reading';
import { ApiError, throwIfCancelled } from './api-backend';
import { runInSteps } from './in-steps';
import type { usablePackets } from '../core/projection';
import type { Turn } from '../core/turn-index';

/** What a context's plan rows need besides the plan: its closed turns, their positions by id, the usable packets. */
export interface PlanFacts {
  closed: Turn[];
  /** turn id → position in the plan (ids are ledger data: a Map, never an object). */
  position: Map<string, number>;
  packets: ReturnType<typeof usablePackets>;
}

/**
 * A leaf's projection plan with everything a window of its chain needs, computed
 * once per (ledger index, leaf, plan, profile, overrides) and kept, so
 * paging through the chain or the projected pane never decides the plan again.
 * Message bodies are not kept: a page shapes its own (`lp.messages`).
 */

export interface LeafContext {
  leaf: number;
  lp: LeafPlan;
  vc: VisibilityContext;
  /** Computed on first use: kind counts, chain positions per kind filter, the plan's outline and turn lookups. */
  memo: {
    kindCounts?: Record<string, number>;
    filtered: Lru<string, Int32Array>;
    outline?: PlanOutline;
    plan?: PlanFacts;
  };
}

/** Contexts kept per session: side A and B of a comparison, and a previous leaf to come back to. */
const KEEP = 4;
/** Kind filters kept per context (each an Int32Array of up to the chain's length). */
const KEEP_FILTERS = 8;
/**
 * Kept per reading of the session's ledger (its generation): an append changes no chain that was
 * there, so a context stays right (and the new active leaf starts from the one above it); a reload
 * or a rewrite found in place is a new reading, and so starts over.
 */
const cache = new PerReading<Lru<string, LeafContext>>('leaf contexts');

/** The leaf's index: the request's id, or the active leaf when null. */
export function leafIndex(s: OpenSession, leaf: string | null): number {
  const ix = s.ledger.index;
  if (leaf === null) {
    if (ix.count === 0) throw new ApiError('not_found', `${s.key} has no entries`);
    return ix.activeLeaf;
  }
  const i = s.ledger.indexOf(leaf);
  if (i === undefined) throw new ApiError('not_found', `no entry ${leaf} in ${s.key}`);
  return i;
}

/** Override keys sorted: the same overrides in another order are the same projection. */
function cacheKey(leaf: number, req: LeafRequest): string {
  const o = Object.keys(req.overrides)
    .sort()
    .map((k) => [k, req.overrides[k]]);
  return JSON.stringify([leaf, req.plan, req.profile.window, req.profile.reserve, req.profile.bytes_per_token, o]);
}

/** The (cached) context of a leaf request. */
export function leafContext(s: OpenSession, req: LeafRequest, signal?: CancelSignal): LeafContext {
  for (const steps = leafContextSteps(s, req, signal); ;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * `leafContext` in steps of ~STEP_MS (or `stepMs`: Infinity runs it in one go), other requests
 * answered between them (a new leaf of a long chain, or a new bytes_per_token, reads every turn
 * again): callers run it first, and then find the context kept.
 */
export function leafContextInSteps(
  s: OpenSession,
  req: LeafRequest,
  signal?: CancelSignal,
  stepMs?: number,
): Promise<LeafContext> {
  return runInSteps(leafContextSteps(s, req, signal), signal, stepMs);
}

function* leafContextSteps(s: OpenSession, req: LeafRequest, signal?: CancelSignal): Generator<void, LeafContext> {
  const leaf = leafIndex(s, req.leaf);
  const entries = cache.getOrMake(s.ledger, () => new Lru(KEEP));
  const key = cacheKey(leaf, req);
  const hit = entries.get(key);
  if (hit) return hit;
  throwIfCancelled(signal);
  const lp = yield* planLeafSteps(
    s.ledger,
    leaf,
    { plan: req.plan, profile: req.profile, overrides: new Map(Object.entries(req.overrides)), signal },
    keptFacts(s, entries, leaf, req.profile.bytes_per_token),
  );
  const vc = visibilityContext(lp.chain, lp.ctx.resetPos, lp.turnIndex, lp.planRows, lp.projectedAs);
  const ctx: LeafContext = { leaf, lp, vc, memo: { filtered: new Lru(KEEP_FILTERS) } };
  entries.set(key, ctx);
  return ctx;
}

/**
 * The chain facts of the kept contexts the plan starts from (any plan options will do: chain facts
 * depend on bytes_per_token alone, and the plan takes only those of its own). Kept per reading, so
 * never facts of bytes that are gone.
 */
function keptFacts(s: OpenSession, kept: Lru<string, LeafContext>, leaf: number, bpt: number): ChainFacts[] {
  return startFacts(
    s.ledger.index,
    [...kept.entries()].map(([, c]) => c.lp.chainFacts),
    leaf,
    bpt,
  );
}

/**
 * Of the planned leaves `kept`, those a plan of `leaf` is offered to start from. The plan starts
 * from the one whose chain shares the most with the leaf's (nearestPlanned). When that chain goes on
 * below the meeting (a deeper leaf of the same chain was planned: the active leaf, another click),
 * starting there copies the shared prefix, looks at every entry it drops and, when those held
 * context, scans the prefix again: the whole chain, for a key press down it. A kept leaf above the
 * new one on that same chain (the one just shown) only adds the entries between them: it is
 * offered alone when that is less, unless a reset lies between (the turns would start over).
 */
export function startFacts(index: LedgerIndex, kept: ChainFacts[], leaf: number, bpt: number): ChainFacts[] {
  const m = nearestPlanned(index, kept, leaf, bpt);
  if (!m) return kept;
  const { prev, pos, path } = m;
  const dropped = prev.chain.length - 1 - pos;
  if (dropped === 0) return kept;
  let best = prev;
  let cost = dropped + pos + 1 + path.length;
  for (const f of kept) {
    if (f === prev || f.bpt !== bpt || f.turnIndex.turns.length === 0) continue;
    // f's chain is prev's first p + 1 entries when its leaf stands at p there.
    const p = chainPosition(prev.chain, f.leaf);
    const added = pos - p + path.length;
    if (p < 0 || p > pos || added >= cost || resetWithin(index, prev.chain, p + 1, pos)) continue;
    best = f;
    cost = added;
  }
  return [best];
}

/** Whether chain positions `from` … `to` hold a reset_all compaction. */
function resetWithin(index: LedgerIndex, chain: Int32Array, from: number, to: number): boolean {
  for (let pos = from; pos <= to; pos++) {
    const i = chain[pos];
    if (index.kind[i] === KIND.compaction && (index.flags[i] & F_RESET) !== 0) return true;
  }
  return false;
}

/**
 * Entries of the chain per kind name, from the index's kind codes (no payload is read).
 * Kind names are ledger data (`constructor`, `__proto__`…): counted in a Map, sent as an
 * object without a prototype, so every name is an ordinary key.
 */
export function kindCounts(s: OpenSession, c: LeafContext): Record<string, number> {
  if (c.memo.kindCounts) return c.memo.kindCounts;
  const ix = s.ledger.index;
  const byCode = new Uint32Array(256);
  const unknown = new Map<string, number>();
  for (const i of c.lp.chain) {
    const k = ix.kind[i];
    if (k === UNKNOWN_KIND) {
      const name = ix.kindName(i);
      unknown.set(name, (unknown.get(name) ?? 0) + 1);
    } else byCode[k]++;
  }
  const counts = new Map<string, number>(unknown);
  KNOWN_KINDS.forEach((name, k) => {
    if (byCode[k] > 0) counts.set(name, byCode[k]);
  });
  return (c.memo.kindCounts = nullProtoRecord(counts));
}

/** A Map as a plain record whose keys can be any string (no prototype to collide with). */
export function nullProtoRecord<V>(m: ReadonlyMap<string, V>): Record<string, V> {
  const out = Object.create(null) as Record<string, V>;
  for (const [k, v] of m) out[k] = v;
  return out;
}

/** Chain positions of the entries whose kind is one of `kinds` (kept per kind set). */
export function filteredPositions(s: OpenSession, c: LeafContext, kinds: readonly string[]): Int32Array {
  const key = [...new Set(kinds)].sort().join('\n');
  const have = c.memo.filtered.get(key);
  if (have) return have;
  const ix = s.ledger.index;
  const allowed = new Uint8Array(256);
  const names = new Set(kinds);
  for (const k of names) {
    const code = kindCode(k); // a Map lookup: `constructor` is no known kind
    if (code !== UNKNOWN_KIND) allowed[code] = 1;
  }
  const chain = c.lp.chain;
  const out = new Int32Array(chain.length);
  let n = 0;
  for (let pos = 0; pos < chain.length; pos++) {
    const i = chain[pos];
    const k = ix.kind[i];
    if (k === UNKNOWN_KIND ? names.has(ix.kindName(i)) : allowed[k] === 1) out[n++] = pos;
  }
  const positions = out.slice(0, n);
  c.memo.filtered.set(key, positions);
  return positions;
}

/** Chain position of entry `i`, or -1: chains run in file order (a parent precedes its children). */
export function chainPosition(chain: Int32Array, i: number): number {
  let lo = 0;
  let hi = chain.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (chain[mid] === i) return mid;
    if (chain[mid] < i) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
