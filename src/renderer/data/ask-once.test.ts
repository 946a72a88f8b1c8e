import { describe, expect, it } from 'vitest';
import { AskOnce } from './ask-once';

describe('AskOnce', () => {
  it('shares a request on the way, answers from memory after, and asks again after a failure', async () => {
    const asks = new AskOnce<{ row: number }>();
    let calls = 0;
    let fail = false;
    const fetch = () => {
      calls++;
      return fail ? Promise.reject(new Error('no')) : Promise.resolve({ row: calls });
    };
    const [a, b] = await Promise.all([asks.ask('x', fetch), asks.ask('x', fetch)]);
    expect(a).toBe(b);
    expect(await asks.ask('x', fetch)).toBe(a);
    expect(calls).toBe(1);
    fail = true;
    await expect(asks.ask('y', fetch)).rejects.toThrow('no');
    fail = false;
    expect(await asks.ask('y', fetch)).toEqual({ row: 3 });
    asks.clear();
    expect(await asks.ask('x', fetch)).toEqual({ row: 4 });
  });
});
