/**
 * The seam between an entry's fate (core `entry-fate.ts`) and the plan engine that plans every
 * turn end: the context series' kept scan and the core's turn-end planner (`core/turn-end.ts`). Only this file
 * knows where the plan comes from.
 */
import type { ContextSeriesRequest } from '../../shared/api-series';
import type { FatePlanner } from '../core/entry-fate';
import type { Ledger } from '../core/ledger';
import { keptScanSteps } from './context-series';
import { TurnEndPlanner } from '../core/turn-end';

/** The plan at every turn end of `leaf`'s chain under the request's plan, profile and overrides. */
export function* fatePlannerSteps(
  ledger: Ledger,
  leaf: number,
  req: ContextSeriesRequest,
): Generator<void, FatePlanner> {
  const scan = yield* keptScanSteps(ledger, leaf, req.profile.bytes_per_token);
  const evaluator = new TurnEndPlanner(ledger, scan.ctx.chain, scan, req, { projections: 0 });
  return { scan, planAt: (p) => evaluator.evaluate(p) };
}
