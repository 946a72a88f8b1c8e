import { describe, expect, it } from 'vitest';
import type { BytesPerTokenFit } from '../../shared/api-series';
import { fitLine, turnEndsWords } from './chart-text';
import { fitVerdict, MIN_APPLY_R2, usefulSuggestion } from './fit-verdict';

const fit = (over: Partial<BytesPerTokenFit>): BytesPerTokenFit => ({
  points: 12,
  bytesPerToken: 3.4,
  suggested: 3,
  r2: 0.97,
  meanRelErrorSuggested: 0.04,
  meanRelErrorCurrent: 0.18,
  cannotFit: null,
  ...over,
});

describe('the bytes-per-token suggestion', () => {
  it('is offered when it explains the measurements better than the current value', () => {
    expect(usefulSuggestion(fit({}), 4)).toBe(3);
  });

  it('is offered only for a fit worth applying: r² at or above the threshold', () => {
    // A flat measured line against a growing context: least squares still finds 1 bytes/token.
    const flat = fit({
      bytesPerToken: 0.61,
      suggested: 1,
      r2: -1.47,
      meanRelErrorSuggested: 0.6,
      meanRelErrorCurrent: 0.9,
    });
    expect(usefulSuggestion(flat, 4)).toBeNull();
    expect(fitVerdict(flat).kind).toBe('poor');
    expect(fitLine(flat, 4)).toContain('a poor fit (r² below 0.9)');
    expect(usefulSuggestion(fit({ r2: MIN_APPLY_R2 - 0.01 }), 4)).toBeNull();
    expect(usefulSuggestion(fit({ r2: MIN_APPLY_R2 }), 4)).toBe(3);
    expect(fitLine(fit({}), 4)).not.toContain('poor');
    // One call says nothing about how well the value fits.
    expect(usefulSuggestion(fit({ points: 1, r2: null }), 4)).toBeNull();
  });

  it('is not offered when it is the current value or no better', () => {
    expect(usefulSuggestion(fit({}), 3)).toBeNull();
    expect(usefulSuggestion(fit({ meanRelErrorCurrent: 0.03 }), 4)).toBeNull();
  });

  it('is not offered without measurements, and the chart says nothing then', () => {
    const none = fit({ points: 0, suggested: null, bytesPerToken: null, r2: null, meanRelErrorSuggested: null });
    expect(usefulSuggestion(none, 4)).toBeNull();
    expect(fitLine(none, 4)).toBeNull();
  });

  it('says why no bytes per token fits measured inputs that do not rise above the fixed part', () => {
    // As the backend answers measured inputs below the per-message overheads (series-fit.test.ts).
    const f = fit({
      points: 3,
      bytesPerToken: null,
      suggested: null,
      r2: null,
      meanRelErrorSuggested: null,
      meanRelErrorCurrent: null,
      cannotFit: { reason: 'not_above_fixed', meanMeasured: 120, meanFixed: 400 },
    });
    expect(fitVerdict(f).kind).toBe('cannot');
    expect(usefulSuggestion(f, 4)).toBeNull();
    expect(fitLine(f, 4)).toBe(
      "cannot fit bytes/token: the measured input (mean 120 tok over 3 calls) does not rise above the estimate's fixed part (mean 400 tok) — does the usage leave out cached tokens?",
    );
  });
});

describe("the chart head's count", () => {
  it('counts the turn ends drawn, and says when a new series is on its way', () => {
    expect(turnEndsWords(39303, false, false)).toBe('39,303 turn ends');
    expect(turnEndsWords(1, false, false)).toBe('1 turn end');
    expect(turnEndsWords(0, false, false)).toBe('0 turn ends');
    expect(turnEndsWords(12, true, false)).toBe('12 turn ends · updating…');
  });

  it('never counts a chain it has not drawn: a big session waiting for "draw it", a first series loading', () => {
    expect(turnEndsWords(null, false, true)).toBe('not drawn yet');
    expect(turnEndsWords(null, true, false)).toBe('loading…');
    expect(turnEndsWords(null, false, false)).toBe('');
  });

  it('adds how far a series on its way has come, once the backend said (never past what it said)', () => {
    expect(turnEndsWords(null, true, false, 0.429)).toBe('loading… 42%');
    expect(turnEndsWords(12, true, false, 0.999)).toBe('12 turn ends · updating… 99%');
    expect(turnEndsWords(12, false, false, 0.5)).toBe('12 turn ends');
  });
});
