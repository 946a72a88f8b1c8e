import { describe, expect, it } from 'vitest';
import { fullTime, shortPath, timeOfDay } from './format';

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
