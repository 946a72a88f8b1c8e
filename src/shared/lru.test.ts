import { describe, expect, it } from 'vitest';
import { Lru } from './lru';

describe('Lru', () => {
  it('drops the least recently used key past max, and says which', () => {
    const dropped: string[] = [];
    const l = new Lru<string, number>(2, (k) => dropped.push(k));
    l.set('a', 1);
    l.set('b', 2);
    expect(l.get('a')).toBe(1); // a is now the newest
    l.set('c', 3);
    expect(dropped).toEqual(['b']);
    expect([...l.entries()].map(([k]) => k)).toEqual(['a', 'c']);
    expect(l.peek('a')).toBe(1);
    l.set('d', 4); // peek did not refresh a
    expect(l.has('a')).toBe(false);
    expect(l.size).toBe(2);
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => new Lru(0)).toThrow(RangeError);
  });
});
