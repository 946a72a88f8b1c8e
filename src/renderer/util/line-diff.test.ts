import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff';

describe('lineDiff', () => {
  it('finds the common lines', () => {
    const d = lineDiff(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e']);
    expect(d).toEqual([
      { op: 'same', text: 'a' },
      { op: 'del', text: 'b' },
      { op: 'add', text: 'x' },
      { op: 'same', text: 'c' },
      { op: 'same', text: 'd' },
      { op: 'add', text: 'e' },
    ]);
  });
  it('rebuilds both sides', () => {
    const a = ['1', '2', '3', '4', '5', '6'];
    const b = ['0', '2', '4', '5', '7', '6'];
    const d = lineDiff(a, b);
    expect(d.filter((o) => o.op !== 'add').map((o) => o.text)).toEqual(a);
    expect(d.filter((o) => o.op !== 'del').map((o) => o.text)).toEqual(b);
  });
});
