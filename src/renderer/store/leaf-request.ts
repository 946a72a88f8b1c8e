import type { LeafRequest } from '../../shared/api';
import type { AppState } from './types';

/**
 * The projected pane comes paged (its first screen only) except while comparing: the comparison
 * reads both projections whole.
 */
export const pagedOf = (s: Pick<AppState, 'compare'>): boolean => !s.compare.open;

/** The leaf view of session `key` that state `s` shows (the leaf loader asks it; a reload asks it early). */
export function leafRequestOf(s: Pick<AppState, 'leaf' | 'plan' | 'profile' | 'overrides'>, key: string): LeafRequest {
  return { key, leaf: s.leaf, plan: s.plan, profile: s.profile, overrides: s.overrides };
}
