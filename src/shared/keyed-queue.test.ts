import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue';

/** A promise and its resolver, to decide by hand when a task ends. */
function gate(): { done: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const done = new Promise<void>((r) => (open = r));
  return { done, open };
}

describe('KeyedQueue', () => {
  it('runs tasks of one key in order, one at a time, and other keys meanwhile', async () => {
    const q = new KeyedQueue<string>();
    const log: string[] = [];
    const g = gate();
    const a1 = q.run('a', async () => {
      log.push('a1 start');
      await g.done;
      log.push('a1 end');
      return 1;
    });
    const a2 = q.run('a', async () => {
      log.push('a2');
      return 2;
    });
    const b1 = q.run('b', async () => {
      log.push('b1');
      return 3;
    });
    expect(await b1).toBe(3);
    expect(log).toEqual(['a1 start', 'b1']);
    g.open();
    expect(await Promise.all([a1, a2])).toEqual([1, 2]);
    expect(log).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
  });

  it('a failed task rejects its caller only; the next one still runs; an idle key holds nothing', async () => {
    const q = new KeyedQueue<string>();
    const failed = q.run('a', () => Promise.reject(new Error('boom')));
    const after = q.run('a', () => Promise.resolve('ran'));
    await expect(failed).rejects.toThrow('boom');
    expect(await after).toBe('ran');
    await new Promise((r) => setTimeout(r, 0));
    expect(q.busyKeys).toBe(0);
  });
});
