import { type CapacityProfile, DEFAULT_PROFILE, type TurnOverride } from '../../shared/ledger-types';
import { parseDecimalInteger } from '../../shared/decimal-integer';
import { profileProblem } from '../util/profile-rules';

/** Drawer panels a link can open (the keys overlay is not a place to return to). */
export const URL_PANELS = ['warnings', 'usage', 'work', 'plan', 'cost'] as const;
export type UrlPanel = (typeof URL_PANELS)[number];

/** Side B of an open comparison, as a link carries it. */
export interface UrlCompare {
  /** 'plan': B shows A's leaf; 'leaf': B shows `leafB`. */
  mode: 'plan' | 'leaf';
  /** B's leaf in leaf mode; null = the active leaf. */
  leafB: string | null;
  planB: 'none' | 'auto';
  /** null: B uses A's profile. */
  profileB: CapacityProfile | null;
  overridesB: Record<string, TurnOverride>;
  diff: boolean;
}

/** The shareable part of the UI: what a reload, Back/Forward or a pasted link restores. */
export interface UrlState {
  session: string | null;
  leaf: string | null;
  plan: 'none' | 'auto';
  profile: CapacityProfile;
  overrides: Record<string, TurnOverride>;
  panels: UrlPanel[];
  /** null: compare is closed. */
  compare: UrlCompare | null;
}

/**
 * The encoding's version. Version 1 (no `v`) carried s, leaf, plan, w, r, b only; version 2 adds
 * overrides, panels and compare. Parts of a version this build does not know are ignored.
 */
export const URL_VERSION = 2;

/** Longest id a link may carry (the API's entry id limit). */
const MAX_ID = 512;
/** Most overrides a link may carry per side; more is not a link a person made. */
const MAX_OVERRIDES = 10_000;
/** Longest hash read at all. */
const MAX_HASH = 1_000_000;

const decode = (s: string): string | null => {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
};
const validId = (s: string | null): s is string => s !== null && s.length > 0 && s.length <= MAX_ID;

const posInt = (v: string | null): number | null => (v === null ? null : parseDecimalInteger(v, 999_999_999));

/** A profile from three parameters; any missing, malformed or refused part (§6 rules) drops the whole profile. */
function parseProfile(p: URLSearchParams, prefix: string, fallback: CapacityProfile): CapacityProfile | null {
  const [w, r, b] = ['w', 'r', 'b'].map((k) => p.get(prefix + k));
  if (w === null && r === null && b === null) return null;
  const profile = {
    window: w === null ? fallback.window : posInt(w),
    reserve: r === null ? fallback.reserve : posInt(r),
    bytes_per_token: b === null ? fallback.bytes_per_token : posInt(b),
  };
  if (profile.window === null || profile.reserve === null || profile.bytes_per_token === null) return null;
  const ok = profile as CapacityProfile;
  return profileProblem(ok) === null ? ok : null;
}

/** `id:full,id:card,id:packet:pid` (ids URI-encoded); an invalid pair is skipped, the rest kept. */
export function parseOverrides(v: string | null): Record<string, TurnOverride> {
  const out: [string, TurnOverride][] = [];
  if (!v) return {};
  for (const part of v.split(',').slice(0, MAX_OVERRIDES)) {
    const [rawId, fid, rawPacket, ...rest] = part.split(':');
    const id = decode(rawId ?? '');
    if (!validId(id) || rest.length > 0) continue;
    if (fid === 'full' && rawPacket === undefined) out.push([id, { fidelity: 'full' }]);
    else if (fid === 'card' && rawPacket === undefined) out.push([id, { fidelity: 'card' }]);
    else if (fid === 'packet') {
      const packet = decode(rawPacket ?? '');
      if (validId(packet)) out.push([id, { fidelity: 'packet', packet_id: packet }]);
    }
  }
  // fromEntries defines own properties: an id named `__proto__` stays a key like any other.
  return Object.fromEntries(out);
}

/** The inverse of `parseOverrides`, in a stable (sorted) order so equal tables give equal links. */
export function formatOverrides(o: Record<string, TurnOverride>): string {
  return Object.entries(o)
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([id, t]) =>
      t.fidelity === 'packet'
        ? `${encodeURIComponent(id)}:packet:${encodeURIComponent(t.packet_id)}`
        : `${encodeURIComponent(id)}:${t.fidelity}`,
    )
    .join(',');
}

const plan = (v: string | null): 'none' | 'auto' => (v === 'none' ? 'none' : 'auto');
const leafParam = (v: string | null): string | null => (validId(v) ? v : null);

/** Reads the UI state from a location hash such as `#v=2&s=agents/…&leaf=e12&cmp=plan&bw=3000`. */
export function parseUrlState(hash: string): UrlState {
  const text = hash.length > MAX_HASH ? '' : hash.startsWith('#') ? hash.slice(1) : hash;
  const p = new URLSearchParams(text);
  const profile = parseProfile(p, '', DEFAULT_PROFILE) ?? DEFAULT_PROFILE;
  const base: UrlState = {
    session: p.get('s') || null,
    leaf: leafParam(p.get('leaf')),
    plan: plan(p.get('plan')),
    profile,
    overrides: {},
    panels: [],
    compare: null,
  };
  if (p.get('v') !== String(URL_VERSION)) return base;
  const panels = (p.get('panels') ?? '').split(',');
  const cmp = p.get('cmp');
  return {
    ...base,
    overrides: parseOverrides(p.get('ov')),
    panels: URL_PANELS.filter((x) => panels.includes(x)),
    compare:
      cmp === 'plan' || cmp === 'leaf'
        ? {
            mode: cmp,
            leafB: cmp === 'leaf' ? leafParam(p.get('bleaf')) : null,
            planB: p.get('bplan') === 'auto' ? 'auto' : 'none', // B's default, as a fresh comparison starts
            profileB: parseProfile(p, 'b', profile),
            overridesB: parseOverrides(p.get('bov')),
            diff: p.get('diff') === '1',
          }
        : null,
  };
}

/** Writes the UI state as a hash; defaults are left out so links stay short. */
export function formatUrlState(s: UrlState): string {
  const p = new URLSearchParams();
  if (s.session) p.set('s', s.session);
  if (s.leaf) p.set('leaf', s.leaf);
  if (s.plan !== 'auto') p.set('plan', s.plan);
  if (s.profile.window !== DEFAULT_PROFILE.window) p.set('w', String(s.profile.window));
  if (s.profile.reserve !== DEFAULT_PROFILE.reserve) p.set('r', String(s.profile.reserve));
  if (s.profile.bytes_per_token !== DEFAULT_PROFILE.bytes_per_token) p.set('b', String(s.profile.bytes_per_token));
  const ov = formatOverrides(s.overrides);
  if (ov) p.set('ov', ov);
  if (s.panels.length > 0) p.set('panels', URL_PANELS.filter((x) => s.panels.includes(x)).join(','));
  const c = s.compare;
  if (c) {
    p.set('cmp', c.mode);
    if (c.mode === 'leaf' && c.leafB) p.set('bleaf', c.leafB);
    p.set('bplan', c.planB);
    if (c.profileB) {
      p.set('bw', String(c.profileB.window));
      p.set('br', String(c.profileB.reserve));
      p.set('bb', String(c.profileB.bytes_per_token));
    }
    const bov = formatOverrides(c.overridesB);
    if (bov) p.set('bov', bov);
    if (c.diff) p.set('diff', '1');
  }
  const q = p.toString();
  return q ? `#v=${URL_VERSION}&${q}` : '';
}
