/**
 * The measured overlay of a context series: what the model was really sent, from the
 * receipts' usage, beside the estimate for that same call. The estimate is the projection
 * at the entry the answer replied to (its parent, one chain position earlier), not at the
 * point, so the pair is a fair sample for the bytes-per-token fit.
 */
import type { MeasuredInput } from '../../shared/api-series';
import type { Ledger } from '../core/ledger';
import { F_ASSISTANT, F_USAGE } from '../core/ledger-index';
import { turnAt } from '../core/chain-scan';
import type { PointEval } from '../core/turn-end';
import type { FitSample } from './series-fit';

/**
 * The measured input of the point's turn's newest answer with a usage, and the estimate for
 * that call (`estimateAt`); the pair is also pushed to `samples` for the fit.
 */
export function measuredInput(
  ledger: Ledger,
  chain: Int32Array,
  bpt: number,
  p: number,
  ev: PointEval,
  estimateAt: (p: number) => PointEval,
  samples: FitSample[],
): MeasuredInput | null {
  const seg = ev.seg;
  if (!seg) return null;
  const j = turnAt(seg, p);
  if (j < 0) return null;
  const t = seg.turns[j];
  const ix = ledger.index;
  // k ≥ 1: entry 0 is the turn's directive, never an answer.
  for (let k = p - t.firstPos; k >= 1; k--) {
    const i = t.entries[k];
    if ((ix.flags[i] & (F_ASSISTANT | F_USAGE)) !== (F_ASSISTANT | F_USAGE)) continue;
    const tokens = ix.usage[i * 4] + ix.usage[i * 4 + 2] + ix.usage[i * 4 + 3];
    const at = t.firstPos + k - 1;
    const est = estimateAt(at);
    samples.push({
      bytes: (est.total - est.fixed) * bpt,
      fixed: est.fixed,
      estimated: est.total,
      measured: tokens,
    });
    return { entryId: ix.ids[i], tokens, answeredId: ix.ids[chain[at]], estimated: est.total };
  }
  return null;
}
