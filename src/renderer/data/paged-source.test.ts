import { describe, expect, it } from 'vitest';
import { PagedSource, type PageAnswer } from './paged-source';

interface Row {
  row: number;
  v: number;
}

/** A list of `total` rows whose fetches are counted and answered when `release` says so (or at once). */
function source(total: number, opts: { maxPages?: number; shift?: number; manual?: boolean } = {}) {
  const calls: { start: number; count: number; signal: AbortSignal }[] = [];
  const waiting: (() => void)[] = [];
  let version = 0;
  const src = new PagedSource<Row, string>({
    pageSize: 10,
    maxPages: opts.maxPages ?? 4,
    total,
    shift: opts.shift,
    fetch: (start, count, signal) => {
      calls.push({ start, count, signal });
      const v = version;
      const answer = (): PageAnswer<Row, string> => ({
        start,
        items: Array.from({ length: Math.max(0, Math.min(count, total - start)) }, (_, k) => ({ row: start + k, v })),
        total,
        meta: `v${v}`,
      });
      if (!opts.manual) return Promise.resolve(answer());
      return new Promise((resolve) => waiting.push(() => resolve(answer())));
    },
  });
  return {
    src,
    calls,
    bump: () => void version++,
    release: async () => {
      for (const w of waiting.splice(0)) w();
      await new Promise((r) => setTimeout(r, 0));
    },
  };
}

describe('PagedSource', () => {
  it('fetches a page once and serves its rows from it', async () => {
    const { src, calls } = source(100);
    expect((await src.load(5))?.row).toBe(5);
    expect((await src.load(9))?.row).toBe(9);
    expect(calls.map((c) => [c.start, c.count])).toEqual([[0, 10]]);
    expect(src.meta).toBe('v0');
    expect(await src.load(100)).toBeUndefined();
  });

  it('keeps at most maxPages pages, dropping the least recently shown', async () => {
    const { src, calls } = source(1000, { maxPages: 3 });
    for (const p of [0, 1, 2]) await src.load(p * 10);
    src.ensure(0, 9); // page 0 shown again: page 1 is now the oldest
    await src.load(30);
    expect(src.get(15)).toBeUndefined();
    expect(src.get(5)?.row).toBe(5);
    expect(src.get(35)?.row).toBe(35);
    expect(calls).toHaveLength(4);
  });

  it('a patch keeps the fetches of pages it does not touch, and drops those it does', async () => {
    const t = source(100, { manual: true });
    const top = t.src.load(3);
    const end = t.src.load(95);
    const mid = t.src.load(45);
    // Rows 100–104 appended; the rows a new lane passes through (40–49) to be fetched again.
    t.src.patch(
      105,
      100,
      [100, 101, 102, 103, 104].map((row) => ({ row, v: 1 })),
      { start: 40, end: 50 },
    );
    // Rows 0–9 and 90–99 did not change (the new rows start a page of their own); 40–49 did.
    expect(t.calls.map((c) => c.signal.aborted)).toEqual([false, false, true]);
    expect(t.src.total).toBe(105);
    await t.release();
    expect((await top)?.row).toBe(3);
    // The kept answer counted the rows before the append: the patch's total stands.
    expect(t.src.total).toBe(105);
    t.src.ensure(0, 9);
    expect(t.calls.map((c) => c.start)).toEqual([0, 90, 40]);
    t.src.ensure(40, 49);
    t.src.ensure(90, 104);
    expect(t.calls.map((c) => c.start)).toEqual([0, 90, 40, 40]);
    await t.release();
    expect((await end)?.row).toBe(95);
    await mid;
    expect(t.src.get(102)?.row).toBe(102);
    expect(t.src.get(45)?.row).toBe(45);
  });

  it('after invalidate shows stale rows until their refetch lands, and drops answers of the old version', async () => {
    const t = source(100, { manual: true });
    const first = t.src.load(3);
    await t.release();
    expect((await first)?.v).toBe(0);
    const superseded = t.src.load(13);
    t.bump();
    t.src.invalidate(120);
    expect(t.calls[1].signal.aborted).toBe(true);
    expect(t.src.total).toBe(120);
    expect(t.src.get(3)?.v).toBe(0); // still shown while stale
    t.src.ensure(0, 19);
    await t.release();
    await superseded;
    expect(t.src.get(3)?.v).toBe(1);
    expect(t.src.get(13)?.v).toBe(1);
    expect(t.calls.map((c) => c.start)).toEqual([0, 10, 0, 10]);
  });

  it('lays pages on a shifted grid and fetches only what a seed left missing', async () => {
    // A window of rows 25..44 arrived with the view: the grid puts it on one page.
    const { src, calls } = source(45, { shift: 5 });
    src.seed(25, Array.from({ length: 20 }, (_, k) => ({ row: 25 + k, v: 9 })).slice(0, 20));
    src.ensure(25, 44);
    expect(calls).toEqual([]);
    src.ensure(20, 24);
    await new Promise((r) => setTimeout(r, 0));
    expect(calls.map((c) => [c.start, c.count])).toEqual([[15, 10]]);
    expect(src.get(24)?.v).toBe(0);
    expect(src.find((r) => r.row === 30)).toEqual({ row: 30, item: { row: 30, v: 9 } });
  });

  it('asks for no page whose rows in view a seed already gave, even one it filled in part', async () => {
    // The projected pane's first screen: the last rows, seeded inside a page (no shifted grid).
    const { src, calls } = source(47);
    src.seed(
      33,
      Array.from({ length: 14 }, (_, k) => ({ row: 33 + k, v: 9 })),
    );
    src.ensure(35, 46);
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual([]);
    // A row the seed did not give: its page is asked for.
    src.ensure(32, 46);
    await new Promise((r) => setTimeout(r, 0));
    expect(calls.map((c) => [c.start, c.count])).toEqual([[30, 10]]);
    expect(src.get(32)?.v).toBe(0);
  });

  it('reports a failed page and fetches it again when asked', async () => {
    let fail = true;
    const src = new PagedSource<number>({
      pageSize: 10,
      maxPages: 2,
      total: 20,
      fetch: async (start) => {
        if (fail) throw new Error('disk gone');
        return { start, items: [start], total: 20 };
      },
    });
    expect(await src.load(0)).toBeUndefined();
    expect(src.error).toBe('disk gone');
    fail = false;
    expect(await src.load(0)).toBe(0);
    expect(src.error).toBeNull();
  });
});
