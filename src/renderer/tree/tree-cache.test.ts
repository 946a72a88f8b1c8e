import { describe, expect, it } from 'vitest';
import type { Api, TreeRow } from '../../shared/api';
import { MAX_PAGES, PAGE_SIZE, TreePageCache } from './tree-cache';

const fakeApi = (total: number, calls: number[]): Api =>
  ({
    getTreeRows: async ({ start, count }: { start: number; count: number }) => {
      calls.push(start);
      const rows = Array.from(
        { length: Math.max(0, Math.min(count, total - start)) },
        (_, i) => ({ row: start + i, id: `r${start + i}` }) as TreeRow,
      );
      return { total, laneCount: 1, rows };
    },
  }) as unknown as Api;

describe('TreePageCache', () => {
  it('fetches a page once, serves rows from it, and refetches after invalidate', async () => {
    const calls: number[] = [];
    const c = new TreePageCache(fakeApi(1000, calls), 'k', false, 1000);
    expect((await c.load(5))?.id).toBe('r5');
    expect((await c.load(6))?.id).toBe('r6');
    expect(calls).toEqual([0]);
    c.invalidate(1001);
    expect(c.row(5)?.id).toBe('r5'); // still shown while stale
    await c.load(5);
    expect(calls).toEqual([0, 0]);
  });

  it('keeps at most MAX_PAGES pages for a million rows', async () => {
    const calls: number[] = [];
    const total = 1_000_000;
    const c = new TreePageCache(fakeApi(total, calls), 'k', false, total);
    for (let p = 0; p < MAX_PAGES + 20; p++) await c.load(p * PAGE_SIZE);
    expect(c.row(0)).toBeUndefined();
    expect(c.row((MAX_PAGES + 19) * PAGE_SIZE)?.id).toBe(`r${(MAX_PAGES + 19) * PAGE_SIZE}`);
    expect(await c.load(total - 1)).toMatchObject({ row: total - 1 });
  });
});
