import { describe, expect, it } from 'vitest';
import type { BytesPerTokenFit } from '../../shared/api-features';
import { fitLine, isPoorFit, usefulSuggestion } from './chart-text';

const fit = (over: Partial<BytesPerTokenFit>): BytesPerTokenFit => ({
  points: 12,
  bytesPerToken: 3.4,
  suggested: 3,
  r2: 0.97,
  meanRelErrorSuggested: 0.04,
  meanRelErrorCurrent: 0.18,
  ...over,
});

describe('the bytes-per-token suggestion', () => {
  it('is offered when it explains the measurements better than the current value', () => {
    expect(usefulSuggestion(fit({}), 4)).toBe(3);
  });

  it('says so when even the best fit is far off (the demo: r² −10.5, 90 % error)', () => {
    const poor = fit({
      bytesPerToken: 0.09,
      suggested: 1,
      r2: -10.51,
      meanRelErrorSuggested: 0.9,
      meanRelErrorCurrent: 0.97,
    });
    expect(isPoorFit(poor)).toBe(true);
    expect(fitLine(poor, 4)).toContain('a poor fit');
    expect(isPoorFit(fit({}))).toBe(false);
    expect(fitLine(fit({}), 4)).not.toContain('poor');
  });

  it('is not offered when it is the current value or no better', () => {
    expect(usefulSuggestion(fit({}), 3)).toBeNull();
    expect(usefulSuggestion(fit({ meanRelErrorCurrent: 0.03 }), 4)).toBeNull();
  });

  it('is not offered without measurements', () => {
    expect(usefulSuggestion(fit({ suggested: null, bytesPerToken: null, meanRelErrorSuggested: null }), 4)).toBeNull();
  });
});
