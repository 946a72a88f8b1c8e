import type { StateCreator } from 'zustand';
import { leafResetForSession } from './leaf-slice';
import { sessionReset } from './session-slice';
import type { AppState, UrlSlice } from './types';
import { URL_PANELS, type UrlState } from './url-state';

export type { UrlState };

/** Applying the URL: a link names a session, a leaf, a plan, overrides, open panels and a comparison. */
export const createUrlSlice: StateCreator<AppState, [], [], UrlSlice> = (set) => ({
  applyUrl: (u) =>
    set((s) => {
      const panels = { ...s.panels, ...Object.fromEntries(URL_PANELS.map((p) => [p, u.panels.includes(p)])) };
      return {
        ...(s.sessionKey !== u.session ? { sessionKey: u.session, ...sessionReset(), ...leafResetForSession() } : {}),
        leaf: u.leaf,
        plan: u.plan,
        profile: u.profile,
        overrides: u.overrides,
        panels,
        compare: u.compare ? { ...u.compare, open: true } : { ...s.compare, open: false },
      };
    }),
});
