import { describe, expect, it } from 'vitest';
import { fmtInt, fullTime, shortPath, timeOfDay } from './format';

// Stamps are built from local dates so the test holds in any time zone.
const local = (y: number, mo: number, d: number, h: number, mi: number, s: number): string =>
  new Date(y, mo - 1, d, h, mi, s, 123).toISOString();
const NOW = new Date(2026, 10, 29, 15, 0, 0).getTime();

describe('timestamps in lists', () => {
  it('shows only the time today', () => {
    expect(timeOfDay(local(2026, 11, 29, 9, 41, 7), NOW)).toBe('09:41:07');
  });

  it('shows the date where it differs from today (a stamp from another day was "09:41:07" too)', () => {
    expect(timeOfDay(local(2026, 11, 20, 9, 41, 7), NOW)).toBe('20 Nov 09:41');
    expect(timeOfDay(local(2025, 11, 29, 9, 41, 7), NOW)).toBe('2025-11-29 09:41');
  });

  it('gives the full stamp for the hover title, and shows a stamp that does not parse as written', () => {
    const ts = local(2026, 11, 20, 9, 41, 7);
    expect(fullTime(ts)).toBe(`2026-11-20 09:41:07.123 local · ${ts} as recorded`);
    expect(timeOfDay('yesterday', NOW)).toBe('yesterday');
  });
});

describe('shortPath', () => {
  it("abbreviates only the user's own home: another user's home stays whole", () => {
    expect(shortPath('/home/ana/proj', '/home/ana')).toBe('~/proj');
    expect(shortPath('/home/bob/proj', '/home/ana')).toBe('/home/bob/proj');
    expect(shortPath('/home/ana', '/home/ana/')).toBe('~');
    // A sibling whose name starts with the home's is not under it.
    expect(shortPath('/home/anabel/proj', '/home/ana')).toBe('/home/anabel/proj');
    expect(shortPath('/Users/bob/proj', '/Users/bob')).toBe('~/proj');
  });
  it('shortens nothing when the home is not known', () => {
    expect(shortPath('/home/ana/proj', undefined)).toBe('/home/ana/proj');
    expect(shortPath('/home/ana/proj', '')).toBe('/home/ana/proj');
  });
});

describe('fmtInt', () => {
  const intl = new Intl.NumberFormat('en-US');
  it('writes every number as en-US Intl does', () => {
    const samples = [0, -0, 1, 7, 12, 999, 1000, -1000, 12_345, 999_999, 1_000_000, 41_230, -987_654_321];
    samples.push(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53, 1e21, 0.5, 1234.5678, -0.0004);
    samples.push(NaN, Infinity, -Infinity);
    let x = 12345;
    for (let k = 0; k < 2000; k++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      samples.push(Math.round((x / 2 ** 31 - 0.3) * 10 ** (k % 17)));
    }
    for (const n of samples) expect(fmtInt(n), String(n)).toBe(intl.format(n));
  });
  it('groups in threes from the right', () => {
    expect(fmtInt(1234567)).toBe('1,234,567');
    expect(fmtInt(-1234)).toBe('-1,234');
    expect(fmtInt(123)).toBe('123');
  });
});
