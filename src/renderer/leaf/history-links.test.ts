import { describe, expect, it } from 'vitest';
import type { ChainItem } from '../../shared/api';
import { projectedOf } from './history-pane';

const item = (projectedAs: number[]): ChainItem => ({
  pos: 3,
  id: 'e0004',
  index: 3,
  kind: 'message',
  role: 'assistant',
  control: false,
  line: 4,
  ts: '2026-01-01T00:00:00Z',
  text: 'hi',
  turnId: null,
  projectedAs,
  projectedFidelity: projectedAs.map(() => 'full'),
  hidden: null,
});

describe("a History row's links to the projected pane", () => {
  it('are one list per chain item: the memoized row is not drawn again on a hover elsewhere', () => {
    const c = item([7, 9]);
    expect(projectedOf(c)).toBe(projectedOf(c));
    expect(projectedOf(c)).toEqual([
      { index: 7, label: '#7 full' },
      { index: 9, label: '#9 full' },
    ]);
    // Another item (a new page of the same entry) gets its own.
    expect(projectedOf(item([7, 9]))).not.toBe(projectedOf(c));
  });
});
