import type { CapacityProfile } from '../../shared/ledger-types';
import { ownTable } from '../../shared/own-key';
import { fmtInt } from './format';

/** The largest values the API accepts (src/shared/api-schemas.ts). */
export const PROFILE_MAX = ownTable({ window: 100_000_000, reserve: 100_000_000, bytes_per_token: 1000 } as const);

/** What is wrong with a profile: the field at fault and the reason, in words. */
export interface ProfileFault {
  field: keyof CapacityProfile;
  reason: string;
}

/**
 * Why a CapacityProfile (§6) cannot be used, or null when it can: whole numbers, a positive
 * window and bytes per token, and a reserve below the window (else nothing is available).
 */
export function profileFault(p: CapacityProfile): ProfileFault | null {
  const fault = (field: keyof CapacityProfile, reason: string): ProfileFault => ({ field, reason });
  for (const k of ['window', 'reserve', 'bytes_per_token'] as const) {
    const v = p[k];
    if (!Number.isInteger(v)) return fault(k, `${label(k)} must be a whole number`);
    if (v > PROFILE_MAX[k]) return fault(k, `${label(k)} must be at most ${fmtInt(PROFILE_MAX[k])}`);
  }
  if (p.window <= 0) return fault('window', 'window must be above 0');
  if (p.bytes_per_token <= 0) return fault('bytes_per_token', 'bytes/token must be above 0');
  if (p.reserve < 0) return fault('reserve', 'reserve must not be negative');
  if (p.reserve >= p.window)
    return fault(
      'reserve',
      `reserve (${fmtInt(p.reserve)}) must be below the window (${fmtInt(p.window)}): nothing would be left for the context`,
    );
  return null;
}

/** The reason a profile cannot be used, or null when it can. */
export const profileProblem = (p: CapacityProfile): string | null => profileFault(p)?.reason ?? null;

const label = (k: keyof CapacityProfile): string => (k === 'bytes_per_token' ? 'bytes/token' : k);
