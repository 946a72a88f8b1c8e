import { describe, expect, it } from 'vitest';
import { SessionScheduler } from './session-scheduler';

/** A promise and its resolve, to tell a test when a job ran (tests wait for events, never for time). */
function signal<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('SessionScheduler', () => {
  it('never runs a job made for a generation the session left, whenever it was due', async () => {
    const jobs = new SessionScheduler(1);
    const ran: string[] = [];
    jobs.at('step', 1, 'immediate', () => ran.push('old step'));
    jobs.at('hash-check', 1, 'timeout', () => ran.push('old check'));
    jobs.at('keep', 1, 0, () => ran.push('old keep'));
    jobs.advance(2);
    expect(jobs.size).toBe(0);
    // Jobs of the new generation, due after the old ones would have been: they run, the old never do.
    const done = signal();
    jobs.at('step', 2, 'immediate', () => ran.push('new step'));
    jobs.at('keep', 2, 0, () => ran.push('new keep'));
    jobs.at('last', 2, 'timeout', () => done.resolve());
    await done.promise;
    await new Promise((r) => setImmediate(r));
    expect(ran.sort()).toEqual(['new keep', 'new step']);
  });

  it('drops what a job waits for once the session moved on: its continuation never runs', async () => {
    const jobs = new SessionScheduler(1);
    const work = signal<string>();
    const ran: string[] = [];
    const waited = jobs.after('kept-check', 1, work.promise, (v) => void ran.push(v));
    expect(jobs.has('kept-check')).toBe(true);
    jobs.advance(2);
    work.resolve('from generation 1');
    await waited;
    expect(ran).toEqual([]);
    // The same, not moved on: it runs.
    const again = signal<string>();
    const ok = jobs.after('kept-check', 2, again.promise, (v) => void ran.push(v));
    again.resolve('from generation 2');
    await ok;
    expect(ran).toEqual(['from generation 2']);
  });

  it('refuses a job made for an older generation than the current one', async () => {
    const jobs = new SessionScheduler(3);
    let ran = false;
    jobs.at('map-ids', 2, 'immediate', () => (ran = true));
    expect(jobs.size).toBe(0);
    const run = jobs.whileAt(2, async () => (ran = true));
    expect(await run()).toBeUndefined();
    expect(ran).toBe(false);
  });

  it('a removed session runs nothing again, and takes no new job', async () => {
    const jobs = new SessionScheduler(1);
    const ran: string[] = [];
    jobs.at('keep', 1, 0, () => ran.push('keep'));
    jobs.close();
    jobs.at('keep', 1, 'immediate', () => ran.push('late'));
    expect(jobs.size).toBe(0);
    expect(jobs.runNow('keep')).toBe(false);
    await new Promise((r) => setTimeout(r, 0)); // (a turn: anything due at 0 would have run)
    expect(ran).toEqual([]);
  });

  it('runs a waiting job now on request (a keep as the session leaves), once', async () => {
    const jobs = new SessionScheduler(1);
    const ran: string[] = [];
    jobs.at('keep', 1, 60_000, () => ran.push('keep'));
    jobs.at('step', 1, 60_000, () => ran.push('step'));
    expect(jobs.runNow('keep')).toBe(true);
    expect(jobs.runNow('keep')).toBe(false);
    jobs.cancel('step');
    expect(ran).toEqual(['keep']);
    expect(jobs.size).toBe(0);
  });
});
