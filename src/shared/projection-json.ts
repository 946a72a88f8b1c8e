import type { ProjectionJson } from './api-features';
import type { Projection } from './ledger-types';

/**
 * §9: the projection as `project --json` prints it and the JSON export writes it — exactly its
 * fields, in its order, without `notes` (not part of the command line's JSON). One definition
 * for the CLI and the export, so the two cannot drift.
 */
export function projectionJson(p: Projection): ProjectionJson {
  return {
    leaf: p.leaf,
    system: p.system,
    tools: p.tools,
    messages: p.messages,
    plan: p.plan,
    tokens: p.tokens,
    over_budget: p.over_budget,
  };
}
