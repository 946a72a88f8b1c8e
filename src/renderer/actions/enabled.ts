/** When actions can run: shared tests of the store's state. */
import type { AppState } from '../store/types';

/** A session is open (its tree is there to act on). */
export const hasOpenSession = (s: AppState): boolean => s.sessionKey !== null && s.sessionInfo !== null;

/** An entry is selected (the branch composer opens under it). */
export const hasSelectedEntry = (s: AppState): boolean => (s.leafView?.leaf ?? null) !== null;
