import type { CapacityProfile, TurnOverride } from './ledger-types';

/**
 * The two request shapes every part of the API names (the core methods in api.ts, the features in
 * api-features.ts): kept apart so that neither of those imports the other.
 */

/** A session's path relative to the home: `agents/<agent>/sessions/<cwd-hash>/<session-id>.jsonl`. */
export type SessionKey = string;

/** A leaf and how to project it: what a leaf view, its pages and the features that follow a leaf ask with. */
export interface LeafRequest {
  key: SessionKey;
  /** Entry id of the leaf; null means the active leaf. */
  leaf: string | null;
  plan: 'none' | 'auto';
  profile: CapacityProfile;
  /** turn id → forced fidelity. */
  overrides: Record<string, TurnOverride>;
}
