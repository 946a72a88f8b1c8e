import { describe, expect, it } from 'vitest';
import type { EntryFate, EntryFateRow } from '../../shared/api-features';
import { fateRuns, runText } from './fate-runs';

const row = (turn: number, fidelity: EntryFateRow['fidelity'], extra: Partial<EntryFateRow> = {}): EntryFateRow => ({
  turn,
  at: `e${turn}`,
  fidelity,
  packet: null,
  reset: null,
  tokens: fidelity === 'full' ? 19 : 0,
  available: 100,
  fullNeed: 50,
  total: 80,
  overBudget: 0,
  ...extra,
});

describe('fate runs', () => {
  it('merges turn ends of one fate, splits at another packet and at the change', () => {
    const p1 = { id: 'packet-one-long-id', first: 1, last: 3 };
    const fate: EntryFate = {
      entry: 'e1',
      kind: 'message',
      leaf: 'e9',
      turn: 1,
      rows: [
        row(1, 'full'),
        row(2, 'full'),
        row(3, 'packet', { packet: p1, tokens: 34 }),
        row(4, 'packet', { packet: p1, tokens: 34 }),
        row(5, 'packet', { packet: { id: 'p2', first: 1, last: 4 }, tokens: 30 }),
      ],
      change: { row: 2, turn: 3, at: 'e3', fidelity: 'packet', comesBack: false, reason: 'r' },
    };
    const runs = fateRuns(fate);
    expect(runs.map((r) => [r.fidelity, r.fromTurn, r.toTurn, r.count, r.change])).toEqual([
      ['full', 1, 2, 2, false],
      ['packet', 3, 4, 2, true],
      ['packet', 5, 5, 1, false],
    ]);
    expect(runText(runs[0])).toBe('turns 1–2: Full · 19 tok');
    expect(runText(runs[1])).toBe('turns 3–4: Packet packet-o… (covers turns 1–3) · 34 tok');
  });
});
