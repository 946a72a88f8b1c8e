import { describe, expect, it } from 'vitest';
import { ReadTurns, type TurnReason } from './read-turns';

/** Turns over a count of calls the test sets, their reasons in order. */
function turnsOver(maxWaitMs = 60_000) {
  const state = { calls: 0, wanted: false };
  const reasons: TurnReason[] = [];
  const turns = new ReadTurns(
    () => state.calls,
    maxWaitMs,
    (r) => reasons.push(r),
  );
  return { state, reasons, turns, turn: () => turns.turn(() => state.wanted) };
}

describe('when a read in steps reads its next chunk', () => {
  it('with no call in flight: after one turn of the event loop, not in this one', async () => {
    const t = turnsOver();
    let read = false;
    const turn = t.turn().then(() => (read = true));
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(read).toBe(false);
    await turn;
    expect(t.reasons).toEqual(['no-calls']);
  });

  it('with calls in flight: once they ended, not before', async () => {
    const t = turnsOver();
    t.state.calls = 2;
    const order: string[] = [];
    const turn = t.turn().then(() => order.push('chunk'));
    // However many turns go by, the chunk waits for the calls.
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    t.state.calls = 1;
    t.turns.changed();
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    order.push('calls answered');
    t.state.calls = 0;
    t.turns.changed();
    await turn;
    expect(order).toEqual(['calls answered', 'chunk']);
    expect(t.reasons).toEqual(['no-calls']);
  });

  it('when something waits for the reading (queued behind it): at once, calls in flight or not', async () => {
    const t = turnsOver();
    t.state.calls = 3;
    const turn = t.turn();
    await new Promise((r) => setImmediate(r));
    t.state.wanted = true;
    t.turns.changed();
    await turn;
    expect(t.reasons).toEqual(['wanted']);
  });

  it('a call that never ends slows the reading, never stops it', async () => {
    const t = turnsOver(0);
    t.state.calls = 1;
    await t.turn();
    await t.turn();
    expect(t.reasons).toEqual(['waited-too-long', 'waited-too-long']);
  });
});
