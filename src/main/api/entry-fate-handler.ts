/**
 * `getEntryFate` and `searchProjected`: an entry's fate at every turn end of a leaf's chain, and
 * search in what the model was sent, both over the plan of every turn end (`fate-planner.ts`).
 */
import type { EntryFate, EntryFateRequest, ProjectedSearch, ProjectedSearchRequest } from '../../shared/api-features';
import { entryFateSteps } from '../core/entry-fate';
import type { Ledger } from '../core/ledger';
import { projectedSearchSteps } from '../search/projected-search';
import { ApiError } from './api-backend';
import { fatePlannerSteps } from './fate-planner';

/** The fate of `req.entry` on `leaf`'s chain; a bad_request when the entry is not on it. */
export function* entryFateOf(ledger: Ledger, leaf: number, req: EntryFateRequest): Generator<void, EntryFate> {
  const i = ledger.indexOf(req.entry);
  if (i === undefined) throw new ApiError('not_found', `no entry ${JSON.stringify(req.entry)} in this session`);
  const planner = yield* fatePlannerSteps(ledger, leaf, req);
  const pos = planner.scan.ctx.chain.lastIndexOf(i);
  if (pos < 0) {
    throw new ApiError('bad_request', `entry ${JSON.stringify(req.entry)} is not on the chain of the chosen leaf`);
  }
  return yield* entryFateSteps(ledger, planner, pos, req.profile.bytes_per_token, overriddenTurns(req));
}

/** Search in the projected context at the leaf, or at every turn end of its chain. */
export function* projectedSearchOf(
  ledger: Ledger,
  leaf: number,
  req: ProjectedSearchRequest,
): Generator<void, ProjectedSearch> {
  return yield* projectedSearchSteps(
    ledger,
    leaf,
    req,
    () => fatePlannerSteps(ledger, leaf, req),
    overriddenTurns(req),
  );
}

const overriddenTurns = (req: { overrides?: Record<string, unknown> }): Set<string> =>
  new Set(Object.keys(req.overrides ?? {}));
