import { describe, expect, it } from 'vitest';
import { keySettler, PAUSE_MS, SETTLE_MS, type SettleClock } from './key-settle';

/** A clock the test moves: its timers run when it says, in time order. */
function testClock() {
  let t = 0;
  let timers: { at: number; f: () => void }[] = [];
  const clock: SettleClock = {
    after: (ms, f) => {
      const timer = { at: t + ms, f };
      timers.push(timer);
      return () => (timers = timers.filter((x) => x !== timer));
    },
  };
  const pass = (ms: number): void => {
    t += ms;
    for (const x of timers.filter((y) => y.at <= t).sort((a, b) => a.at - b.at)) {
      if (!timers.includes(x)) continue;
      timers = timers.filter((y) => y !== x);
      x.f();
    }
  };
  return { clock, pass };
}

describe('when keyboard travel asks for the panes', () => {
  it('asks for nothing between the presses of a run that come a frame or more apart, then for the last row', () => {
    const c = testClock();
    const s = keySettler(c.clock);
    const asked: number[] = [];
    for (let k = 1; k <= 5; k++) {
      s.moved(() => asked.push(k));
      s.released();
      // A loaded page: a frame or two between each release and the next press.
      c.pass(30);
    }
    expect(asked).toEqual([]);
    c.pass(PAUSE_MS - 30);
    expect(asked).toEqual([5]);
  });

  it('asks once a lone key is let go and the pause passes', () => {
    const c = testClock();
    const s = keySettler(c.clock);
    const asked: string[] = [];
    s.moved(() => asked.push('a'));
    c.pass(5);
    s.released();
    s.released();
    c.pass(PAUSE_MS - 1);
    expect(asked).toEqual([]);
    c.pass(1);
    expect(asked).toEqual(['a']);
    c.pass(SETTLE_MS * 2);
    expect(asked).toEqual(['a']);
  });

  it('asks once the cursor rests without a release, and never after stop', () => {
    const c = testClock();
    const s = keySettler(c.clock);
    const asked: string[] = [];
    s.moved(() => asked.push('held'));
    c.pass(SETTLE_MS - 1);
    expect(asked).toEqual([]);
    c.pass(1);
    expect(asked).toEqual(['held']);
    s.moved(() => asked.push('dropped'));
    s.stop();
    c.pass(SETTLE_MS * 2);
    expect(asked).toEqual(['held']);
  });
});
