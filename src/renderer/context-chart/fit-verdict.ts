/**
 * What the chart makes of the bytes-per-token fit: whether it is worth applying, and, when
 * no value fits, why. The threshold lives here and nowhere else.
 */
import type { BytesPerTokenFit } from '../../shared/api-series';
import { fmtInt } from '../util/format';

/**
 * Least squares always finds a value; below this r² the estimate at that value does not
 * follow the measurements (a flat measured line against a growing context scores below 0),
 * and setting the profile to it would mislead.
 */
export const MIN_APPLY_R2 = 0.9;

export type FitVerdict =
  /** Nothing was measured on this chain. */
  | { kind: 'unmeasured' }
  /** Measurements exist but no bytes per token explains them. */
  | { kind: 'cannot'; why: string }
  /** A fit too weak to apply (r² below the threshold, or not known from a single call). */
  | { kind: 'poor'; why: string }
  | { kind: 'good' };

export function fitVerdict(fit: BytesPerTokenFit): FitVerdict {
  if (fit.cannotFit) {
    const { meanMeasured, meanFixed } = fit.cannotFit;
    return {
      kind: 'cannot',
      why:
        `cannot fit bytes/token: the measured input (mean ${fmtInt(Math.round(meanMeasured))} tok ` +
        `over ${fit.points} call${fit.points === 1 ? '' : 's'}) does not rise above the estimate's fixed part ` +
        `(mean ${fmtInt(Math.round(meanFixed))} tok) — does the usage leave out cached tokens?`,
    };
  }
  if (fit.bytesPerToken === null || fit.suggested === null) return { kind: 'unmeasured' };
  if (fit.r2 === null) return { kind: 'poor', why: 'one call: too few to judge the fit' };
  if (fit.r2 < MIN_APPLY_R2) {
    return {
      kind: 'poor',
      why: `a poor fit (r² below ${MIN_APPLY_R2}): the estimate does not follow these measurements`,
    };
  }
  return { kind: 'good' };
}

/** The bytes per token worth offering as "apply": a good fit, other than the current value, that errs less. */
export function usefulSuggestion(fit: BytesPerTokenFit, current: number): number | null {
  if (fitVerdict(fit).kind !== 'good') return null;
  const { suggested, meanRelErrorSuggested: errFit, meanRelErrorCurrent: errNow } = fit;
  if (suggested === null || suggested === current) return null;
  return errFit === null || errNow === null || errFit < errNow ? suggested : null;
}
