/**
 * The fallback of a context series: a point the scan's per-turn figures cannot describe
 * exactly, projected by the core itself. Two cases: a closed turn cut short at the point
 * (only an estimate for a measured input can be one), and a point inside a late range,
 * where a card call's presentation comes after its turn ended so the turn costs otherwise
 * than its final Full cost. Both are rare, and `work.projections` counts them.
 */
import type { ContextSeriesRequest } from '../../shared/api-features';
import type { TurnOverride } from '../../shared/ledger-types';
import { ownTable } from '../../shared/own-key';
import type { Ledger } from '../core/ledger';
import { projectLeaf } from '../core/projection';
import { fixedTokens } from './series-costs';
import { FID_CARD, FID_FULL, FID_PACKET } from './series-plan';
import { finishPoint, type PointEval, type Unplanned } from './series-point-eval';

/** A point the per-turn figures cannot describe: the core projects it, counted in `work.projections`. */
export function evaluateByProjection(
  ledger: Ledger,
  chain: readonly number[],
  req: ContextSeriesRequest,
  overrides: ReadonlyMap<string, TurnOverride>,
  work: { projections: number },
  p: number,
  u: Unplanned,
): PointEval {
  const { seg, closed } = u;
  work.projections++;
  const { plan, profile } = req;
  const proj = projectLeaf(ledger, chain[p], { plan, profile, overrides }).projection;
  const parts = ownTable({ ...u.parts, full: 0, card: 0, packet: 0 });
  let fixed = u.fixed;
  for (const m of proj.messages) {
    if (m.fidelity === 'full' || m.fidelity === 'card' || m.fidelity === 'packet') {
      parts[m.fidelity] += m.tokens;
      fixed += fixedTokens(m.content);
    }
  }
  const fidelity = new Uint8Array(closed);
  const counts = ownTable({ full: 0, card: 0, packet: 0 });
  const used = new Set<string>();
  proj.plan.forEach((row) => {
    const k = seg.byId.get(row.turn_id);
    counts[row.fidelity]++;
    if (row.packet_id) used.add(row.packet_id);
    if (k !== undefined && k < closed)
      fidelity[k] = row.fidelity === 'full' ? FID_FULL : row.fidelity === 'card' ? FID_CARD : FID_PACKET;
  });
  const need = proj.over_budget + proj.tokens.available;
  return finishPoint(parts, fixed, proj.tokens.available, need, seg, fidelity, closed, counts, [...used]);
}
