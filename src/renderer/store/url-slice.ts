import type { StateCreator } from 'zustand';
import { leafResetForSession } from './leaf-slice';
import { sessionReset } from './session-slice';
import type { AppState, UrlSlice } from './types';
import type { UrlState } from './url-state';

export type { UrlState };

/** Applying the URL: a link names a session, a leaf and a plan. */
export const createUrlSlice: StateCreator<AppState, [], [], UrlSlice> = (set) => ({
  applyUrl: (u) =>
    set((s) => ({
      ...(s.sessionKey !== u.session ? { sessionKey: u.session, ...sessionReset(), ...leafResetForSession() } : {}),
      leaf: u.leaf,
      plan: u.plan,
      profile: u.profile,
    })),
});
