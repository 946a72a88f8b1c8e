import { afterEach, describe, expect, it, vi } from 'vitest';
import { promiseWithin } from './settled-within';

// main.tsx waits so for a page's HTTP early answers before its first render.
describe('a wait for an answer, within a cap (promiseWithin)', () => {
  afterEach(() => void vi.useRealTimers());

  /** An answer that settles when told to. */
  function pending() {
    let settle: { resolve: (v: unknown) => void; reject: (e: Error) => void } | null = null;
    const answer = new Promise<unknown>((resolve, reject) => (settle = { resolve, reject }));
    return { answer, settle: () => settle! };
  }
  /** Whether `p` has settled, after every microtask queued so far has run. */
  async function settled(p: Promise<void>): Promise<boolean> {
    let done = false;
    void p.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    return done;
  }

  it('settles when the answer comes, not before, and leaves no timer behind', async () => {
    vi.useFakeTimers();
    const { answer, settle } = pending();
    const p = promiseWithin(answer, 400);
    await vi.advanceTimersByTimeAsync(399);
    expect(await settled(p)).toBe(false);
    settle().resolve({ answers: [] });
    expect(await settled(p)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('settles when the answer fails', async () => {
    vi.useFakeTimers();
    const { answer, settle } = pending();
    const p = promiseWithin(answer, 400);
    settle().reject(new Error('network'));
    expect(await settled(p)).toBe(true);
  });

  it('settles at the cap when the answer does not come', async () => {
    vi.useFakeTimers();
    const { answer } = pending();
    const p = promiseWithin(answer, 400);
    await vi.advanceTimersByTimeAsync(399);
    expect(await settled(p)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(p)).toBe(true);
  });
});
