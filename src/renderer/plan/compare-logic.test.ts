import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import type { DiffOp } from '../util/line-diff';
import { compareLabels, type CompareSide } from './compare-labels';
import { DIFF_CONTEXT, layoutDiff } from './diff-rows';
import { profileProblem } from '../util/profile-rules';

const side = (p: Partial<CompareSide> = {}): CompareSide => ({
  leaf: 'e0019',
  plan: 'auto',
  profile: DEFAULT_PROFILE,
  overrides: {},
  ...p,
});

describe('compare labels', () => {
  it('name every setting that differs, and only those', () => {
    const l = compareLabels(
      side(),
      side({ plan: 'none', profile: { ...DEFAULT_PROFILE, window: 3000, reserve: 500 } }),
    );
    expect(l).toEqual({
      a: 'plan auto · window 200,000 · reserve 16,000',
      b: 'plan none · window 3,000 · reserve 500',
      same: false,
    });
    expect(compareLabels(side(), side({ leaf: 'e0009' })).b).toBe('leaf e0009');
    expect(compareLabels(side(), side({ profile: { ...DEFAULT_PROFILE, bytes_per_token: 3 } })).b).toBe(
      'bytes/token 3',
    );
    expect(compareLabels(side(), side())).toEqual({ a: 'same settings', b: 'same settings', same: true });
  });

  it('say when a side has overrides, and when the same count means other turns', () => {
    const three = { t1: { fidelity: 'full' }, t2: { fidelity: 'card' }, t3: { fidelity: 'full' } } as const;
    expect(compareLabels(side(), side({ overrides: three })).b).toBe('overrides: 3 turns');
    expect(compareLabels(side(), side({ overrides: three })).a).toBe('no overrides');
    const same = compareLabels(side({ overrides: three }), side({ overrides: { ...three } }));
    expect(same).toEqual({ a: 'overrides: 3 turns', b: 'overrides: 3 turns', same: true });
    const other = compareLabels(
      side({ overrides: { t1: { fidelity: 'full' } } }),
      side({ overrides: { t1: { fidelity: 'card' } } }),
    );
    expect(other.b).toBe('overrides: 1 turn (other)');
    expect(other.same).toBe(false);
  });
});

describe('diff layout', () => {
  const same = (n: number, from = 0): DiffOp[] =>
    Array.from({ length: n }, (_, i) => ({ op: 'same', text: `s${from + i}` }));
  it('folds unchanged runs beyond the context around each change and indexes the changes', () => {
    const ops: DiffOp[] = [
      ...same(20),
      { op: 'del', text: 'old' },
      { op: 'add', text: 'new' },
      ...same(20, 20),
      { op: 'add', text: 'more' },
      ...same(2, 40),
    ];
    const l = layoutDiff(ops);
    expect(l.added).toBe(2);
    expect(l.removed).toBe(1);
    // head fold, context, change, context, middle fold, context, change, two lines.
    expect(l.rows[0]).toEqual({ kind: 'fold', start: 0, count: 20 - DIFF_CONTEXT });
    expect(l.changeRows).toHaveLength(2);
    expect(l.rows[l.changeRows[0]]).toMatchObject({ kind: 'line', op: 'del', change: 0 });
    expect(l.rows[l.changeRows[0] + 1]).toMatchObject({ kind: 'line', op: 'add', change: 0 });
    expect(l.rows[l.changeRows[1]]).toMatchObject({ kind: 'line', op: 'add', text: 'more', change: 1 });
    const folds = l.rows.filter((r) => r.kind === 'fold');
    expect(folds).toEqual([
      { kind: 'fold', start: 0, count: 17 },
      { kind: 'fold', start: 22, count: 20 - 2 * DIFF_CONTEXT },
    ]);
    // Unfolding a run shows all its lines.
    const open = layoutDiff(ops, new Set([22]));
    expect(open.rows.filter((r) => r.kind === 'fold')).toHaveLength(1);
    expect(open.rows).toHaveLength(l.rows.length - 1 + 20 - 2 * DIFF_CONTEXT);
    expect(layoutDiff(same(5)).changeRows).toEqual([]);
  });
});

describe('profile rules', () => {
  it('refuse a reserve not below the window, a non-positive window and bytes/token', () => {
    expect(profileProblem(DEFAULT_PROFILE)).toBeNull();
    expect(profileProblem({ window: 3000, reserve: 3000, bytes_per_token: 4 })).toMatch(/must be below the window/);
    expect(profileProblem({ window: 0, reserve: 0, bytes_per_token: 4 })).toBe('window must be above 0');
    expect(profileProblem({ window: 10, reserve: 0, bytes_per_token: 0 })).toBe('bytes/token must be above 0');
    expect(profileProblem({ window: 10, reserve: -1, bytes_per_token: 4 })).toBe('reserve must not be negative');
    expect(profileProblem({ window: 10.5, reserve: 0, bytes_per_token: 4 })).toBe('window must be a whole number');
    expect(profileProblem({ window: 10, reserve: 0, bytes_per_token: 1001 })).toMatch(/at most 1,000/);
    expect(profileProblem({ window: 600, reserve: 0, bytes_per_token: 4 })).toBeNull();
  });
});
