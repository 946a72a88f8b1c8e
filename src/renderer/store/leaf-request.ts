import type { LeafRequest, LeafViewRequest } from '../../shared/api';
import { leafScreen } from '../util/leaf-screen';
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

/**
 * The `getLeafView` request for what state `s` shows of session `key`: paged (pagedOf) and for the
 * window's screen, so its first answer holds what the panes show at once (the loader asks it; a
 * reload asks the same early).
 */
export function leafViewRequestOf(
  s: Pick<AppState, 'leaf' | 'plan' | 'profile' | 'overrides'>,
  key: string,
  paged: boolean,
): LeafViewRequest {
  const screen = leafScreen();
  return { ...leafRequestOf(s, key), pagedMessages: paged, ...(screen ? { screen } : {}) };
}
