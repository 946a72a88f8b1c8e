import { describe, expect, it } from 'vitest';
import { keyedCopy, ownTable, ownValue } from './own-key';

describe('records keyed by ledger data', () => {
  it('reads only own keys', () => {
    const r: Record<string, number> = JSON.parse('{"__proto__":1,"a":2}') as Record<string, number>;
    expect(ownValue(r, '__proto__')).toBe(1);
    expect(ownValue(r, 'constructor')).toBeUndefined();
    expect(ownValue(r, 'toString')).toBeUndefined();
    expect(ownValue(r, 'a')).toBe(2);
  });

  it('keeps __proto__ an ordinary key when assigned on a copy', () => {
    const next = keyedCopy<number>({ a: 1 });
    next['__proto__'] = 5;
    next['constructor'] = 6;
    expect(Object.keys(next)).toEqual(['a', '__proto__', 'constructor']);
    expect(JSON.parse(JSON.stringify(next))).toEqual(JSON.parse('{"a":1,"__proto__":5,"constructor":6}'));
  });

  it('a table without a prototype finds only its listed keys', () => {
    const t: Record<string, string> = ownTable({ header: 'head', turn_card: 'card' });
    expect(t['header']).toBe('head');
    for (const k of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(t[k]).toBeUndefined();
      expect(k in t).toBe(false);
    }
    expect(Object.keys(t)).toEqual(['header', 'turn_card']);
  });
});
