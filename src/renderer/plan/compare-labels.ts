import type { CapacityProfile, TurnOverride } from '../../shared/ledger-types';
import { fmtInt, shortId } from '../util/format';

/** What one side of a comparison is: a leaf under a plan, a profile and overrides. */
export interface CompareSide {
  leaf: string;
  plan: 'none' | 'auto';
  profile: CapacityProfile;
  overrides: Record<string, TurnOverride>;
}

export interface CompareLabels {
  /** Everything about A that differs from B (and A's overrides, if any), e.g. "plan auto · window 200,000". */
  a: string;
  b: string;
  /** Nothing differs: both sides ask the same question. */
  same: boolean;
}

const PROFILE_PARTS: { key: keyof CapacityProfile; name: string }[] = [
  { key: 'window', name: 'window' },
  { key: 'reserve', name: 'reserve' },
  { key: 'bytes_per_token', name: 'bytes/token' },
];

const overridesText = (o: Record<string, TurnOverride>): string => {
  const n = Object.keys(o).length;
  return n === 0 ? 'no overrides' : `overrides: ${n} turn${n === 1 ? '' : 's'}`;
};

const sameOverrides = (x: Record<string, TurnOverride>, y: Record<string, TurnOverride>): boolean => {
  const kx = Object.keys(x);
  if (kx.length !== Object.keys(y).length) return false;
  return kx.every((k) => Object.hasOwn(y, k) && JSON.stringify(x[k]) === JSON.stringify(y[k]));
};

/**
 * The labels of a comparison's sides: each names every setting that differs between them
 * (leaf, plan, each profile field, overrides), so a reader never has to guess why B differs.
 * A side with overrides always says so, even when the other side has the same ones.
 */
export function compareLabels(a: CompareSide, b: CompareSide): CompareLabels {
  const pa: string[] = [];
  const pb: string[] = [];
  let same = true;
  if (a.leaf !== b.leaf) {
    same = false;
    pa.push(`leaf ${shortId(a.leaf)}`);
    pb.push(`leaf ${shortId(b.leaf)}`);
  }
  if (a.plan !== b.plan) {
    same = false;
    pa.push(`plan ${a.plan}`);
    pb.push(`plan ${b.plan}`);
  }
  for (const { key, name } of PROFILE_PARTS) {
    if (a.profile[key] !== b.profile[key]) {
      same = false;
      pa.push(`${name} ${fmtInt(a.profile[key])}`);
      pb.push(`${name} ${fmtInt(b.profile[key])}`);
    }
  }
  const differ = !sameOverrides(a.overrides, b.overrides);
  const hasA = Object.keys(a.overrides).length > 0;
  const hasB = Object.keys(b.overrides).length > 0;
  if (differ || hasA || hasB) {
    if (differ && Object.keys(a.overrides).length === Object.keys(b.overrides).length) {
      // Same count, other turns or fidelities: the count alone would read as "the same".
      pa.push(`${overridesText(a.overrides)} (other)`);
      pb.push(`${overridesText(b.overrides)} (other)`);
    } else {
      pa.push(overridesText(a.overrides));
      pb.push(overridesText(b.overrides));
    }
  }
  if (differ) same = false;
  return {
    a: pa.length > 0 ? pa.join(' · ') : 'same settings',
    b: pb.length > 0 ? pb.join(' · ') : 'same settings',
    same,
  };
}
