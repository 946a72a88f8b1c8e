import { describe, expect, it } from 'vitest';
import { firstPhase, RefusedTransition, transition, type SessionEvent, type SessionPhase } from './session-state';

const G = 7;
const PHASES: Record<string, SessionPhase> = {
  reading: { name: 'reading', generation: G, keptUnchecked: false, hashesDeferred: false },
  'reading (hashes deferred)': { name: 'reading', generation: G, keptUnchecked: false, hashesDeferred: true },
  'reading (kept unchecked)': { name: 'reading', generation: G, keptUnchecked: true, hashesDeferred: false },
  'whole (kept-check)': { name: 'whole', generation: G, awaiting: 'kept-check' },
  'whole (hash-check)': { name: 'whole', generation: G, awaiting: 'hash-check' },
  verified: { name: 'verified', generation: G },
  kept: { name: 'kept', generation: G },
  removed: { name: 'removed', generation: G },
};
const EVENTS: Record<string, SessionEvent> = {
  readToEnd: { type: 'readToEnd' },
  'checked kept-check': { type: 'checked', check: 'kept-check' },
  'checked hash-check': { type: 'checked', check: 'hash-check' },
  kept: { type: 'kept' },
  'reloaded (more to read)': { type: 'reloaded', moreToRead: true },
  'reloaded (whole)': { type: 'reloaded', moreToRead: false },
  removed: { type: 'removed' },
};

/** Every allowed move: [phase, event, the phase it leads to]. Every other pair is refused. */
const ALLOWED: [string, string, SessionPhase][] = [
  ['reading', 'readToEnd', { name: 'verified', generation: G }],
  ['reading (hashes deferred)', 'readToEnd', { name: 'whole', generation: G, awaiting: 'hash-check' }],
  ['reading (kept unchecked)', 'readToEnd', { name: 'whole', generation: G, awaiting: 'kept-check' }],
  [
    'reading (kept unchecked)',
    'checked kept-check',
    { name: 'reading', generation: G, keptUnchecked: false, hashesDeferred: false },
  ],
  ['whole (kept-check)', 'checked kept-check', { name: 'verified', generation: G }],
  ['whole (hash-check)', 'checked hash-check', { name: 'verified', generation: G }],
  ['verified', 'kept', { name: 'kept', generation: G }],
  ['kept', 'kept', { name: 'kept', generation: G }],
];
// Every live phase may be read again (a new generation) or removed (a new generation: its work is dropped).
for (const p of Object.keys(PHASES).filter((n) => n !== 'removed')) {
  ALLOWED.push(
    [p, 'reloaded (more to read)', { name: 'reading', generation: G + 1, keptUnchecked: false, hashesDeferred: false }],
    [p, 'reloaded (whole)', { name: 'verified', generation: G + 1 }],
    [p, 'removed', { name: 'removed', generation: G + 1 }],
  );
}

describe('the session lifecycle (session-state.ts)', () => {
  const allowed = new Map(ALLOWED.map(([p, e, to]) => [`${p} + ${e}`, to]));
  for (const [pn, p] of Object.entries(PHASES)) {
    for (const [en, e] of Object.entries(EVENTS)) {
      const to = allowed.get(`${pn} + ${en}`);
      if (to) {
        it(`${pn} + ${en} → ${to.name}`, () => expect(transition(p, e)).toEqual(to));
      } else {
        it(`${pn} + ${en} is refused`, () => expect(() => transition(p, e)).toThrow(RefusedTransition));
      }
    }
  }

  it('only reloaded and removed start a new generation', () => {
    for (const [p, e, to] of ALLOWED) {
      const renews = EVENTS[e].type === 'reloaded' || EVENTS[e].type === 'removed';
      expect(to.generation, `${p} + ${e}`).toBe(renews ? PHASES[p].generation + 1 : PHASES[p].generation);
    }
  });

  it('a session starts reading, whole awaiting a check, or verified, from what its open read', () => {
    const first = (moreToRead: boolean, keptUnchecked: boolean, hashesDeferred: boolean): SessionPhase =>
      firstPhase(0, { moreToRead, keptUnchecked, hashesDeferred });
    expect(first(true, false, true)).toEqual({
      name: 'reading',
      generation: 0,
      keptUnchecked: false,
      hashesDeferred: true,
    });
    expect(first(true, true, false)).toEqual({
      name: 'reading',
      generation: 0,
      keptUnchecked: true,
      hashesDeferred: false,
    });
    expect(first(false, true, false)).toEqual({ name: 'whole', generation: 0, awaiting: 'kept-check' });
    expect(first(false, false, false)).toEqual({ name: 'verified', generation: 0 });
  });

  it('a refused move names the phase and the event, and leaves the phase as it was', () => {
    const p = PHASES['whole (hash-check)'];
    expect(() => transition(p, { type: 'kept' })).toThrow(/'kept' while whole awaiting its hash-check/);
    expect(p).toEqual({ name: 'whole', generation: G, awaiting: 'hash-check' });
  });
});
