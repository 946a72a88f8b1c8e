/**
 * §6 steps 1–4 for one point of a context series, over typed arrays: the same rule as
 * core `choosePlan` (plan.ts), overrides first (docs/spec-decisions.md), but without an
 * object per turn, so a 10,000-turn series plans every point in O(closed turns).
 * `series-plan.test.ts` checks it against `choosePlan` on random inputs.
 */

/** Closed turns of one segment (after a reset), in chain order. */
export interface SeriesTurns {
  /** Full cost per turn. */
  full: Float64Array;
  /** prefixFull[k] = full[0] + … + full[k-1]. */
  prefixFull: Float64Array;
}

/** A packet as the plan sees it at one point: usable, its range in turn positions. */
export interface SeriesPacket {
  id: string;
  first: number;
  last: number;
  tokens: number;
}

/** What the plan chose at one point. `fidelity[k]`: 0 Full, 1 Card, 2 Packet. */
export interface SeriesPlanResult {
  need: number;
  fullTokens: number;
  cardTokens: number;
  packetTokens: number;
  full: number;
  card: number;
  packet: number;
  packetsUsed: SeriesPacket[];
}

/** Per-turn overrides by turn position: what `choosePlan` gets as a map by turn id. */
export interface SeriesOverrides {
  /** OV_NONE, OV_FULL, OV_CARD or OV_PACKET per turn position. */
  kind: Uint8Array;
  /** The forced packet's id, for OV_PACKET. */
  packetId: (string | null)[];
}

export const OV_NONE = 0;
export const OV_FULL = 1;
export const OV_CARD = 2;
export const OV_PACKET = 3;

export const FID_FULL = 0;
export const FID_CARD = 1;
export const FID_PACKET = 2;

/**
 * Plans the first `m` closed turns. `cardTokens(k)` is the turn's Card cost at this point, or
 * -1 without a turn card; `packets` are the usable ones sorted by first turn (ties in chain
 * order). Writes each turn's fidelity into `fidelity` (length ≥ m).
 */
export function planPoint(
  turns: SeriesTurns,
  m: number,
  cardTokens: (k: number) => number,
  packets: readonly SeriesPacket[],
  available: number,
  auto: boolean,
  fidelity: Uint8Array,
  overrides: SeriesOverrides | null = null,
): SeriesPlanResult {
  fidelity.fill(FID_FULL, 0, m);
  const r: SeriesPlanResult = {
    need: turns.prefixFull[m],
    fullTokens: turns.prefixFull[m],
    cardTokens: 0,
    packetTokens: 0,
    full: m,
    card: 0,
    packet: 0,
    packetsUsed: [],
  };
  const fixed = overrides ? new Uint8Array(m) : null;
  const rangeFree = (p: SeriesPacket): boolean => {
    for (let k = p.first; k <= p.last; k++) if ((fixed && fixed[k]) || fidelity[k] !== FID_FULL) return false;
    return true;
  };
  const applyPacket = (p: SeriesPacket): void => {
    const rangeCost = turns.prefixFull[p.last + 1] - turns.prefixFull[p.first];
    r.need += p.tokens - rangeCost;
    r.fullTokens -= rangeCost;
    r.packetTokens += p.tokens;
    const n = p.last - p.first + 1;
    r.full -= n;
    r.packet += n;
    fidelity.fill(FID_PACKET, p.first, p.last + 1);
    r.packetsUsed.push(p);
  };
  const applyCard = (k: number, c: number): void => {
    fidelity[k] = FID_CARD;
    r.need += c - turns.full[k];
    r.fullTokens -= turns.full[k];
    r.cardTokens += c;
    r.full--;
    r.card++;
  };
  // Overrides first, in turn order; then fixed (a failed one leaves the turn Full and fixed).
  if (overrides && fixed) {
    for (let k = 0; k < m; k++) {
      const o = overrides.kind[k];
      if (o === OV_NONE || fixed[k]) continue;
      if (o === OV_CARD) {
        const c = cardTokens(k);
        if (c >= 0) applyCard(k, c);
      } else if (o === OV_PACKET) {
        const p = packets.find((q) => q.id === overrides.packetId[k] && q.first <= k && k <= q.last);
        if (p && rangeFree(p)) {
          applyPacket(p);
          fixed.fill(1, p.first, p.last + 1);
        }
      }
      fixed[k] = 1;
    }
  }
  if (!auto || r.need <= available) return r;
  // Step 2: packets, oldest first; one whose range is not all free Full turns is skipped.
  for (const p of packets) {
    if (r.need <= available) break;
    if (!rangeFree(p)) continue;
    const rangeCost = turns.prefixFull[p.last + 1] - turns.prefixFull[p.first];
    if (p.tokens < rangeCost) applyPacket(p);
  }
  // Step 3: cards, oldest turn first, for turns not behind a packet.
  for (let k = 0; k < m && r.need > available; k++) {
    if (fidelity[k] !== FID_FULL || (fixed && fixed[k])) continue;
    const c = cardTokens(k);
    if (c >= 0 && c < turns.full[k]) applyCard(k, c);
  }
  return r;
}
