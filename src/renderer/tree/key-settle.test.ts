import { describe, expect, it } from 'vitest';
import { keySettler, RUN_GAP_MS, RUN_PAUSE_MS, SETTLE_MS, type SettleClock } from './key-settle';

/** A clock the test moves: frames and timers run when it says, in time order. */
function testClock() {
  let t = 0;
  let frames: (() => void)[] = [];
  let timers: { at: number; f: () => void }[] = [];
  const clock: SettleClock = {
    now: () => t,
    frame: (f) => {
      frames.push(f);
      return () => (frames = frames.filter((g) => g !== f));
    },
    after: (ms, f) => {
      const timer = { at: t + ms, f };
      timers.push(timer);
      return () => (timers = timers.filter((x) => x !== timer));
    },
  };
  return {
    clock,
    /** `ms` pass; then a frame is drawn. */
    frame(ms = 16) {
      this.pass(ms);
      const due = frames;
      frames = [];
      due.forEach((f) => f());
    },
    pass(ms: number) {
      t += ms;
      for (const x of timers.filter((x) => x.at <= t).sort((a, b) => a.at - b.at)) {
        if (timers.includes(x)) {
          timers = timers.filter((y) => y !== x);
          x.f();
        }
      }
    },
  };
}

describe('when keyboard travel asks for the panes', () => {
  it('asks on the frame after a lone key is let go, and for nothing a later press replaced', () => {
    const c = testClock();
    const s = keySettler(c.clock);
    const asked: string[] = [];
    s.moved(() => asked.push('a'));
    s.released();
    // The next press before the frame: the first row is never asked for.
    s.moved(() => asked.push('b'));
    c.frame(1);
    expect(asked).toEqual([]);
    s.released();
    c.pass(RUN_PAUSE_MS);
    expect(asked).toEqual(['b']);
    // After a rest, a lone press is asked on its release's frame.
    c.pass(RUN_GAP_MS);
    s.moved(() => asked.push('c'));
    s.released();
    c.frame(1);
    expect(asked).toEqual(['b', 'c']);
  });

  it('asks for nothing between the presses of a run that come a frame or more apart', () => {
    const c = testClock();
    const s = keySettler(c.clock);
    const asked: number[] = [];
    for (let k = 1; k <= 5; k++) {
      s.moved(() => asked.push(k));
      s.released();
      // A loaded page: a frame is drawn between each release and the next press.
      c.frame(20);
    }
    // The first release's frame may ask (nothing says a run follows); no later one does.
    expect(asked.filter((k) => k > 1 && k < 5)).toEqual([]);
    c.pass(RUN_PAUSE_MS);
    expect(asked.at(-1)).toBe(5);
    expect(asked, String(asked)).toHaveLength(2);
  });

  it('asks once the cursor rests without a release, and never after stop', () => {
    const c = testClock();
    const s = keySettler(c.clock);
    const asked: string[] = [];
    s.moved(() => asked.push('held'));
    c.frame(SETTLE_MS - 1);
    expect(asked).toEqual([]);
    c.pass(1);
    expect(asked).toEqual(['held']);
    s.moved(() => asked.push('dropped'));
    s.stop();
    c.pass(SETTLE_MS * 2);
    expect(asked).toEqual(['held']);
  });
});
