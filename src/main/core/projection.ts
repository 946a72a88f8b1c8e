import type { Fidelity, PlanRow, ProjectedMessage, Projection, ProjectionTokens } from '../../shared/ledger-types';
import type { ChainContext } from './chain-context';
import type { Ledger } from './ledger';
import { planLeaf, type LeafPlan, type PlanOptions } from './leaf-plan';
import { DEFAULT_PROFILE } from './tokens';
import type { TurnIndex } from './turn-index';

export type { Fidelity, PlanRow, ProjectedMessage, Projection, ProjectionTokens };
export { cardTurn, fullTurn, headerContext, usablePackets } from './message-shapes';
export { planLeaf, type LeafPlan };

export type ProjectOptions = PlanOptions;

/** §5 derive_messages(leaf). */
export function deriveMessages(ledger: Ledger, leaf: number, profile = DEFAULT_PROFILE): Projection {
  return project(ledger, leaf, { plan: 'none', profile });
}

/** §6 derive_with_plan(leaf, profile). */
export function deriveWithPlan(ledger: Ledger, leaf: number, profile = DEFAULT_PROFILE): Projection {
  return project(ledger, leaf, { plan: 'auto', profile });
}

/** A projection with the chain context it was derived from (what a leaf view also needs). */
export interface LeafProjection {
  projection: Projection;
  /** chain_to_root(leaf), root first. */
  chain: number[];
  ctx: ChainContext;
  /** Chain position of the first entry after the newest reset (0 without one). */
  base: number;
  /** TurnIndex of the entries after the newest reset. */
  turnIndex: TurnIndex;
}

/** The projected context of `leaf` under a plan, a profile and per-turn overrides. */
export function project(ledger: Ledger, leaf: number, opts: ProjectOptions): Projection {
  return projectLeaf(ledger, leaf, opts).projection;
}

/** `project`, keeping the chain, its context and its TurnIndex for the caller: the plan with every message shaped. */
export function projectLeaf(ledger: Ledger, leaf: number, opts: ProjectOptions): LeafProjection {
  const p = planLeaf(ledger, leaf, opts);
  const projection: Projection = { ...p.summary, messages: p.messages(0, p.messageCount, opts.signal) };
  return { projection, chain: p.chain, ctx: p.ctx, base: p.base, turnIndex: p.turnIndex };
}
