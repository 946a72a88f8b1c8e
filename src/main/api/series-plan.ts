/**
 * §6 steps 1–4 for one point of a context series, over typed arrays: the same rule as
 * core `choosePlan` (plan.ts) without overrides, but allocation-free, so a 10,000-turn
 * series plans every point in O(closed turns) without making an object per turn.
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
  if (!auto || r.need <= available) return r;
  // Step 2: packets, oldest first; one overlapping a range already replaced is skipped.
  let maxLast = -1;
  for (const p of packets) {
    if (r.need <= available) break;
    if (p.first <= maxLast) continue;
    const rangeCost = turns.prefixFull[p.last + 1] - turns.prefixFull[p.first];
    if (p.tokens < rangeCost) {
      r.need += p.tokens - rangeCost;
      r.fullTokens -= rangeCost;
      r.packetTokens += p.tokens;
      const n = p.last - p.first + 1;
      r.full -= n;
      r.packet += n;
      fidelity.fill(FID_PACKET, p.first, p.last + 1);
      r.packetsUsed.push(p);
      maxLast = p.last;
    }
  }
  // Step 3: cards, oldest turn first, for turns not behind a packet.
  for (let k = 0; k < m && r.need > available; k++) {
    if (fidelity[k] !== FID_FULL) continue;
    const c = cardTokens(k);
    const f = turns.full[k];
    if (c >= 0 && c < f) {
      fidelity[k] = FID_CARD;
      r.need += c - f;
      r.fullTokens -= f;
      r.cardTokens += c;
      r.full--;
      r.card++;
    }
  }
  return r;
}
