/**
 * §6 plan choice (steps 1–4, after per-turn overrides: docs/spec-decisions.md), over numbers
 * only: per closed turn its Full and Card costs in typed arrays, packets as ranges of turn
 * positions. The one place the rule lives: a leaf's plan (leaf-plan.ts) and every turn end of
 * a context series (turn-end.ts) call `planClosedTurns`; it allocates no object per turn (a
 * series' planner lends it the fidelity array to write), so a 10,000-turn chain plans each of its
 * turn ends in O(closed turns).
 * `project()` (projection.ts) is the reference the property tests hold it to (plan-engine.test.ts).
 */
import type { TurnOverride } from '../../shared/ledger-types';

/** Fidelity codes in `EnginePlan.fidelity`. */
export const FID_FULL = 0;
export const FID_CARD = 1;
export const FID_PACKET = 2;

/** Override codes in `EngineOverrides.kind`. */
export const OV_NONE = 0;
export const OV_FULL = 1;
export const OV_CARD = 2;
export const OV_PACKET = 3;

/** What the closed turns cost, by turn position (chain order). */
export interface TurnCosts {
  /** Full cost per turn. */
  full: Float64Array;
  /**
   * Card cost per turn, or -1 where the chain holds no turn card for it (at the plan's point). Read
   * only for a card override and by step 3 (`auto`): without either it may be empty.
   */
  card: Float64Array;
  /** Optional prefix sums of `full` (prefix[k] = full[0] + … + full[k-1]): packet ranges cost O(1) each. */
  prefix?: Float64Array;
  /**
   * False when no turn has a Card cost (every `card` is -1): step 3 then has none to look for.
   * A series plans every turn end of a chain: a walk over all its turns at each one was most of
   * a long uncompacted chain's series.
   */
  anyCard?: boolean;
}

/** A usable packet (§6): its id, its range in turn positions (first ≤ last), its cost. */
export interface EnginePacket {
  id: string;
  first: number;
  last: number;
  tokens: number;
}

/** Per-turn overrides by turn position. */
export interface EngineOverrides {
  /** OV_NONE, OV_FULL, OV_CARD or OV_PACKET per turn position. */
  kind: Uint8Array;
  /** The forced packet's id, for OV_PACKET. */
  packetId: readonly (string | null)[];
}

/** An override the plan could not honour (turn position `turn`); `noteText` words it. */
export interface PlanNote {
  turn: number;
  why: 'behind-forced-packet' | 'no-card' | 'packet-unusable' | 'packet-overlap';
  packetId: string | null;
}

/** What the plan chose for turns 0 … m-1. */
export interface EnginePlan {
  /** FID_* per turn position (length m). */
  fidelity: Uint8Array;
  /** The tokens the closed turns cost under the plan (§6 `need`). */
  need: number;
  fullTokens: number;
  cardTokens: number;
  packetTokens: number;
  /** Turns at each fidelity. */
  full: number;
  card: number;
  packet: number;
  /** Indices in `packets` of the packets applied, in the order applied (the FID_PACKET turns are their ranges). */
  packetsUsed: number[];
  notes: PlanNote[];
}

/** A plan note in words, naming its turn by id. */
export function noteText(n: PlanNote, turnId: string): string {
  switch (n.why) {
    case 'behind-forced-packet':
      return `turn ${turnId}: override ignored, the turn is already behind a forced packet`;
    case 'no-card':
      return `turn ${turnId}: no turn card in this chain; kept Full`;
    case 'packet-unusable':
      return `turn ${turnId}: packet ${n.packetId} is not usable for this turn; kept Full`;
    case 'packet-overlap':
      return `turn ${turnId}: packet ${n.packetId} overlaps a turn already fixed; kept Full`;
  }
}

/** Overrides keyed by turn id, as requests name them, by turn position (null when none applies). */
export function overridesByPosition(
  overrides: ReadonlyMap<string, TurnOverride> | undefined,
  positionOf: (turnId: string) => number | undefined,
  turns: number,
): EngineOverrides | null {
  if (!overrides || overrides.size === 0) return null;
  let o: EngineOverrides | null = null;
  for (const [turnId, ov] of overrides) {
    const k = positionOf(turnId);
    if (k === undefined || k >= turns) continue;
    o ??= { kind: new Uint8Array(turns), packetId: new Array<string | null>(turns).fill(null) };
    o.kind[k] = ov.fidelity === 'full' ? OV_FULL : ov.fidelity === 'card' ? OV_CARD : OV_PACKET;
    (o.packetId as (string | null)[])[k] = ov.fidelity === 'packet' ? ov.packet_id : null;
  }
  return o;
}

/**
 * Plans the first `m` closed turns of `costs` under `available` tokens. `packets`: the usable
 * ones, in chain order (step 2 takes them oldest first turn first, ties in that order). With
 * `auto` false only the overrides apply (derive_messages and a forced plan). `into`: where to
 * write the fidelity, FID_FULL over its first `m` (the plan writes only turns it moves from Full,
 * and then `full < m`), or a new array.
 */
export function planClosedTurns(
  costs: TurnCosts,
  m: number,
  packets: readonly EnginePacket[],
  available: number,
  auto: boolean,
  overrides: EngineOverrides | null = null,
  into: Uint8Array | null = null,
): EnginePlan {
  const { full, card, prefix } = costs;
  if (into !== null && into.length < m) throw new RangeError(`fidelity for ${m} turns lent ${into.length}`);
  const fidelity = into === null ? new Uint8Array(m) : into.length === m ? into : into.subarray(0, m);
  let sum = 0;
  if (prefix) sum = prefix[m];
  else for (let k = 0; k < m; k++) sum += full[k];
  const r: EnginePlan = {
    fidelity,
    need: sum,
    fullTokens: sum,
    cardTokens: 0,
    packetTokens: 0,
    full: m,
    card: 0,
    packet: 0,
    packetsUsed: [],
    notes: [],
  };
  const fixed = overrides ? new Uint8Array(m) : null;
  const rangeCost = (p: EnginePacket): number => {
    if (prefix) return prefix[p.last + 1] - prefix[p.first];
    let n = 0;
    for (let k = p.first; k <= p.last; k++) n += full[k];
    return n;
  };
  /** Every turn of the packet's range is a Full turn no override fixed (and the range lies within m). */
  const rangeFree = (p: EnginePacket): boolean => {
    if (p.last >= m) return false;
    for (let k = p.first; k <= p.last; k++) if ((fixed && fixed[k]) || fidelity[k] !== FID_FULL) return false;
    return true;
  };
  const applyPacket = (j: number): void => {
    const p = packets[j];
    const cost = rangeCost(p);
    r.need += p.tokens - cost;
    r.fullTokens -= cost;
    r.packetTokens += p.tokens;
    const n = p.last - p.first + 1;
    r.full -= n;
    r.packet += n;
    fidelity.fill(FID_PACKET, p.first, p.last + 1);
    r.packetsUsed.push(j);
  };
  const applyCard = (k: number): void => {
    fidelity[k] = FID_CARD;
    r.need += card[k] - full[k];
    r.fullTokens -= full[k];
    r.cardTokens += card[k];
    r.full--;
    r.card++;
  };

  // Overrides first, in turn order; an overridden turn is then fixed (a refused one stays Full).
  if (overrides && fixed) {
    for (let k = 0; k < m; k++) {
      const o = overrides.kind[k];
      if (o === OV_NONE) continue;
      if (fixed[k]) {
        r.notes.push({ turn: k, why: 'behind-forced-packet', packetId: null });
        continue;
      }
      if (o === OV_CARD) {
        if (card[k] >= 0) applyCard(k);
        else r.notes.push({ turn: k, why: 'no-card', packetId: null });
      } else if (o === OV_PACKET) {
        const id = overrides.packetId[k];
        const j = packets.findIndex((q) => q.id === id && q.first <= k && k <= q.last && q.last < m);
        if (j < 0) r.notes.push({ turn: k, why: 'packet-unusable', packetId: id });
        else if (!rangeFree(packets[j])) r.notes.push({ turn: k, why: 'packet-overlap', packetId: id });
        else {
          applyPacket(j);
          fixed.fill(1, packets[j].first, packets[j].last + 1);
        }
      }
      fixed[k] = 1;
    }
  }
  if (!auto || r.need <= available) return r;

  // Step 2: packets, oldest first turn first (ties in chain order); a range not all free Full turns is skipped.
  for (const j of oldestFirst(packets)) {
    if (r.need <= available) break;
    const p = packets[j];
    if (rangeFree(p) && p.tokens < rangeCost(p)) applyPacket(j);
  }
  // Step 3: cards, oldest turn first, for turns not behind a packet.
  if (costs.anyCard === false) return r;
  for (let k = 0; k < m && r.need > available; k++) {
    if (fidelity[k] !== FID_FULL || (fixed && fixed[k])) continue;
    if (card[k] >= 0 && card[k] < full[k]) applyCard(k);
  }
  return r;
}

/** Packet indices by first turn, ties in the given order (no sort when already in that order: the usual case). */
function oldestFirst(packets: readonly EnginePacket[]): Int32Array {
  const order = new Int32Array(packets.length);
  let sorted = true;
  for (let j = 0; j < packets.length; j++) {
    order[j] = j;
    if (j > 0 && packets[j].first < packets[j - 1].first) sorted = false;
  }
  return sorted ? order : order.sort((a, b) => packets[a].first - packets[b].first || a - b);
}
