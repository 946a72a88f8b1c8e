import { describe, expect, it } from 'vitest';
import { type DiffOp, lineDiff } from './line-diff';

const sideA = (d: DiffOp[]) => d.filter((o) => o.op !== 'add').map((o) => o.text);
const sideB = (d: DiffOp[]) => d.filter((o) => o.op !== 'del').map((o) => o.text);
const changes = (d: DiffOp[]) => d.filter((o) => o.op !== 'same');

/** Length of a longest common subsequence, by the textbook table (small inputs only). */
function lcsLength(a: string[], b: string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const row = [0];
    for (let j = 0; j < b.length; j++) row.push(x === b[j] ? prev[j] + 1 : Math.max(prev[j + 1], row[j]));
    prev = row;
  }
  return prev[b.length];
}

/** A context of `n` lines, like a long projection's text (some lines repeat, as `}` and blanks do). */
const context = (n: number) =>
  Array.from({ length: n }, (_, i) => (i % 9 === 0 ? '' : i % 13 === 0 ? '}' : `line ${i}: ${'x'.repeat(i % 40)}`));

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
    expect(sideA(d)).toEqual(a);
    expect(sideB(d)).toEqual(b);
  });

  it('is a shortest diff: as many common lines as a longest common subsequence', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let run = 0; run < 200; run++) {
      const a = Array.from({ length: rand(30) }, () => String(rand(6)));
      const b = Array.from({ length: rand(30) }, () => String(rand(6)));
      const d = lineDiff(a, b);
      expect(sideA(d)).toEqual(a);
      expect(sideB(d)).toEqual(b);
      expect(d.filter((o) => o.op === 'same').length).toBe(lcsLength(a, b));
    }
  });

  it('shows the few changes of two 5,000-line contexts, not the whole middle', () => {
    const a = context(5000);
    const b = a.slice();
    b[10] = 'changed ten';
    b[4990] = 'changed 4990';
    const d = lineDiff(a, b);
    expect(changes(d)).toEqual([
      { op: 'del', text: a[10] },
      { op: 'add', text: 'changed ten' },
      { op: 'del', text: a[4990] },
      { op: 'add', text: 'changed 4990' },
    ]);
  });

  it('shows the few changes of two 30,000-line contexts', () => {
    const a = context(30_000);
    const b = a.slice();
    b[100] = 'a changed line';
    b.splice(15_000, 0, 'an inserted line');
    b.splice(29_000, 1);
    const d = lineDiff(a, b);
    expect(changes(d)).toEqual([
      { op: 'del', text: a[100] },
      { op: 'add', text: 'a changed line' },
      { op: 'add', text: 'an inserted line' },
      { op: 'del', text: a[28_999] },
    ]);
    expect(sideA(d)).toEqual(a);
    expect(sideB(d)).toEqual(b);
  });

  it('two 30,000-line contexts with one line in seven changed: only those lines', () => {
    const a = context(30_000);
    const b = a.map((l, i) => (i % 7 === 3 ? `${l} (edited)` : l));
    const d = lineDiff(a, b);
    expect(changes(d).length).toBe(2 * Math.ceil((30_000 - 3) / 7));
    expect(sideA(d)).toEqual(a);
    expect(sideB(d)).toEqual(b);
  });
});
