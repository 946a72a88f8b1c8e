import { type CapacityProfile, DEFAULT_PROFILE } from '../../shared/ledger-types';

/** The shareable part of the selection: what a reload or a pasted link restores. */
export interface UrlState {
  session: string | null;
  leaf: string | null;
  plan: 'none' | 'auto';
  profile: CapacityProfile;
}

const posInt = (v: string | null, fallback: number, min: number): number => {
  if (v === null || !/^\d{1,9}$/.test(v)) return fallback;
  const n = Number(v);
  return n >= min ? n : fallback;
};

/** Reads the selection from a location hash such as `#s=agents/…&leaf=e12&plan=auto&w=200000`. */
export function parseUrlState(hash: string): UrlState {
  const p = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  return {
    session: p.get('s') || null,
    leaf: p.get('leaf') || null,
    plan: p.get('plan') === 'none' ? 'none' : 'auto',
    profile: {
      window: posInt(p.get('w'), DEFAULT_PROFILE.window, 0),
      reserve: posInt(p.get('r'), DEFAULT_PROFILE.reserve, 0),
      bytes_per_token: posInt(p.get('b'), DEFAULT_PROFILE.bytes_per_token, 1),
    },
  };
}

/** Writes the selection as a hash; defaults are left out so links stay short. */
export function formatUrlState(s: UrlState): string {
  const p = new URLSearchParams();
  if (s.session) p.set('s', s.session);
  if (s.leaf) p.set('leaf', s.leaf);
  if (s.plan !== 'auto') p.set('plan', s.plan);
  if (s.profile.window !== DEFAULT_PROFILE.window) p.set('w', String(s.profile.window));
  if (s.profile.reserve !== DEFAULT_PROFILE.reserve) p.set('r', String(s.profile.reserve));
  if (s.profile.bytes_per_token !== DEFAULT_PROFILE.bytes_per_token) p.set('b', String(s.profile.bytes_per_token));
  const q = p.toString();
  return q ? `#${q}` : '';
}
