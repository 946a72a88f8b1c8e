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
});
