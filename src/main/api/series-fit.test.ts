import { describe, expect, it } from 'vitest';
import { fitBytesPerToken } from './series-fit';

describe('bytes-per-token fit', () => {
  it('recovers the ratio of exact figures, with r² = 1 and no error', () => {
    const samples = [1000, 5000, 20000, 80000].map((bytes) => ({
      bytes,
      fixed: 40,
      estimated: 40 + bytes / 4,
      measured: 40 + bytes / 3,
    }));
    const fit = fitBytesPerToken(samples);
    expect(fit.points).toBe(4);
    expect(fit.bytesPerToken).toBeCloseTo(3, 9);
    expect(fit.suggested).toBe(3);
    expect(fit.r2).toBeCloseTo(1, 9);
    expect(fit.meanRelErrorSuggested).toBeCloseTo(0, 9);
    expect(fit.meanRelErrorCurrent).toBeGreaterThan(0.1);
  });

  it('says nothing without measurements, and no r² from one point', () => {
    expect(fitBytesPerToken([]).bytesPerToken).toBeNull();
    const one = fitBytesPerToken([{ bytes: 400, fixed: 4, estimated: 104, measured: 204 }]);
    expect(one.points).toBe(1);
    expect(one.bytesPerToken).toBeCloseTo(2, 9);
    expect(one.r2).toBeNull();
  });

  it('keeps the suggestion within the profile field (1…1000)', () => {
    const fit = fitBytesPerToken([{ bytes: 10, fixed: 0, estimated: 1, measured: 1000 }]);
    expect(fit.suggested).toBe(1);
  });

  it('says why none fits measured inputs that do not rise above the fixed part', () => {
    const below = [1000, 5000, 20000].map((bytes) => ({
      bytes,
      fixed: 400,
      estimated: 400 + bytes / 4,
      measured: 120,
    }));
    const f = fitBytesPerToken(below);
    expect(f).toMatchObject({ points: 3, bytesPerToken: null, suggested: null, r2: null });
    expect(f.cannotFit).toEqual({ reason: 'not_above_fixed', meanMeasured: 120, meanFixed: 400 });
    // Barely above: a bytes per token past any profile (1000) explains nothing either.
    const flat = [1000, 5000, 20000].map((bytes) => ({ bytes, fixed: 400, estimated: 400 + bytes / 4, measured: 401 }));
    expect(fitBytesPerToken(flat).cannotFit?.reason).toBe('not_above_fixed');
    expect(fitBytesPerToken([{ bytes: 400, fixed: 4, estimated: 104, measured: 204 }]).cannotFit).toBeNull();
  });
});
