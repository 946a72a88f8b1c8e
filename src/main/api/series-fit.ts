import type { BytesPerTokenFit } from '../../shared/api-series';

/**
 * One measured model call beside the projection it was sent: `bytes` are the counted
 * strings of that projection (what §6 divides by bytes per token), `fixed` the tokens
 * that do not scale with them (4 per message, 1000 per image), `estimated` the projected
 * total at the request's bytes per token, `measured` the usage's input tokens.
 */
export interface FitSample {
  bytes: number;
  fixed: number;
  estimated: number;
  measured: number;
}

const NONE: BytesPerTokenFit = {
  points: 0,
  bytesPerToken: null,
  suggested: null,
  r2: null,
  meanRelErrorSuggested: null,
  meanRelErrorCurrent: null,
  cannotFit: null,
};

/** The largest bytes per token a profile takes: a fit past it says the bytes explain nothing. */
const MAX_BPT = 1000;

/**
 * Least squares for `measured ≈ fixed + bytes / bpt`: with k = 1/bpt, minimising
 * Σ(measured − fixed − k·bytes)² gives k = Σ bytes·(measured − fixed) / Σ bytes².
 */
export function fitBytesPerToken(samples: readonly FitSample[]): BytesPerTokenFit {
  const use = samples.filter((s) => s.measured > 0 && s.bytes > 0);
  if (use.length === 0) return NONE;
  let sxy = 0;
  let sxx = 0;
  for (const s of use) {
    sxy += s.bytes * (s.measured - s.fixed);
    sxx += s.bytes * s.bytes;
  }
  // No positive slope (or one past any profile): the measured inputs are all, or nearly all,
  // the part that does not scale with bytes — no bytes per token explains them.
  if (sxy <= 0 || sxx / sxy > MAX_BPT) {
    const mean = (f: (s: FitSample) => number): number => use.reduce((n, s) => n + f(s), 0) / use.length;
    return {
      ...NONE,
      points: use.length,
      cannotFit: { reason: 'not_above_fixed', meanMeasured: mean((s) => s.measured), meanFixed: mean((s) => s.fixed) },
    };
  }
  const bpt = sxx / sxy;
  const suggested = Math.max(1, Math.round(bpt));
  const fitted = use.map((s) => s.fixed + s.bytes / suggested);
  const mean = use.reduce((n, s) => n + s.measured, 0) / use.length;
  let ssRes = 0;
  let ssTot = 0;
  use.forEach((s, i) => {
    ssRes += (s.measured - fitted[i]) ** 2;
    ssTot += (s.measured - mean) ** 2;
  });
  const rel = (est: (s: FitSample, i: number) => number): number =>
    use.reduce((n, s, i) => n + Math.abs(est(s, i) - s.measured) / s.measured, 0) / use.length;
  return {
    points: use.length,
    bytesPerToken: bpt,
    suggested,
    r2: use.length >= 2 && ssTot > 0 ? 1 - ssRes / ssTot : null,
    meanRelErrorSuggested: rel((_, i) => fitted[i]),
    meanRelErrorCurrent: rel((s) => s.estimated),
    cannotFit: null,
  };
}
