import { describe, expect, it } from 'vitest';
import { ReadTurns, type TurnReason } from './read-turns';

/** Turns over a count of calls the test sets, their reasons in order. */
function turnsOver(maxWaitMs = 60_000) {
  const state = { calls: 0, waiting: 0 };
  const reasons: TurnReason[] = [];
  const turns = new ReadTurns(
    () => state.calls,
    maxWaitMs,
    (r) => reasons.push(r),
  );
  return { state, reasons, turns, turn: () => turns.turn(() => state.waiting) };
}

describe('when a read in steps reads its next chunk', () => {
  it('with no call in flight: after one turn of the event loop, not in this one', async () => {
    const t = turnsOver();
    let read = false;
    const turn = t.turn().then(() => (read = true));
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(read).toBe(false);
    await turn;
    expect(t.reasons).toEqual(['no-other-calls']);
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
    expect(t.reasons).toEqual(['no-other-calls']);
  });

  it('not for the calls that wait for this reading: once those are the only ones left', async () => {
    const t = turnsOver();
    t.state.calls = 2;
    const turn = t.turn();
    await new Promise((r) => setImmediate(r));
    // A view of the whole file starts to wait for the reading; the other call is still in flight.
    t.state.waiting = 1;
    t.turns.changed();
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(t.reasons).toEqual([]);
    t.state.calls = 1;
    t.turns.changed();
    await turn;
    expect(t.reasons).toEqual(['no-other-calls']);
  });

  it('a call that never ends slows the reading, never stops it', async () => {
    const t = turnsOver(0);
    t.state.calls = 1;
    await t.turn();
    await t.turn();
    expect(t.reasons).toEqual(['waited-too-long', 'waited-too-long']);
  });
});
