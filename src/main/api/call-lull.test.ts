import { describe, expect, it } from 'vitest';
import { CallLull } from './call-lull';

describe('CallLull', () => {
  it('resolves at once when no call ever ran', async () => {
    const l = new CallLull();
    const t = performance.now();
    await l.wait(60_000, 60_000);
    expect(performance.now() - t).toBeLessThan(1000);
  });

  it('waits while a call runs and for the quiet after it', async () => {
    const l = new CallLull();
    l.begin();
    let done = false;
    const waited = l.wait(20, 60_000).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(done).toBe(false); // the call still runs
    const ended = performance.now();
    l.end();
    await waited;
    expect(performance.now() - ended).toBeGreaterThanOrEqual(19);
  });

  it('resolves after maxMs even while calls keep running', async () => {
    const l = new CallLull();
    l.begin();
    const t = performance.now();
    await l.wait(60_000, 30);
    expect(performance.now() - t).toBeGreaterThanOrEqual(29);
  });
});
