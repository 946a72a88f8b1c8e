/**
 * The turn cache keeps a closed turn's Full cost across leaves, and knows when a chain shapes
 * that turn differently (§5.3: a card call's input becomes the ack of the newest presentation in
 * the chain, which can stand after the turn, on one branch only). Counted, never timed.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { planLeaf } from './leaf-plan';
import { allPlanRows } from '../../shared/plan-rows';
import { Ledger } from './ledger';
import { project } from './projection';
import { turnColumns, type KeptTurns } from './kept-turns';
import { adoptTurnColumns, exportTurns, TurnCache, turnCacheOf } from './turn-cache';

function ledgerBytes(entries: Record<string, unknown>[]): Buffer {
  let prev: string | null = null;
  const lines = entries.map((e, k) => {
    const line = JSON.stringify({ ts: new Date(Date.UTC(2026, 10, 29, 9, 0, k)).toISOString(), prev_hash: prev, ...e });
    prev = createHash('sha256').update(line, 'utf8').digest('hex');
    return line;
  });
  return Buffer.from(lines.map((l) => `${l}\n`).join(''));
}

const msg = (id: string, parent: string, role: string, content: unknown[]) => ({
  id,
  parent_id: parent,
  kind: 'message',
  message: { role, content },
});
const text = (t: string) => ({ type: 'text', text: t });
const card = { card_type: 'diff', payload: { lines: 'x'.repeat(400) } };

// Turn u1 (u1 … a2) makes a card call, c1. Two branches from a2: on B a later turn presents the
// card, so c1's input becomes the ack in u1's Full shape; on A nothing presents it. u1's entries
// are the same on both: only the chain's presentations tell the shapes apart.
const LEDGER = ledgerBytes([
  { id: 'h', parent_id: null, kind: 'header', session_id: 's', system_prompt: 'sys', tools: [], cwd: '/w' },
  msg('u1', 'h', 'user', [text('show me the diff')]),
  msg('a1', 'u1', 'assistant', [{ type: 'tool_use', id: 'c1', name: 'show_card', input: card }]),
  msg('r1', 'a1', 'tool', [{ type: 'tool_result', tool_use_id: 'c1', content: 'Card shown.' }]),
  msg('a2', 'r1', 'assistant', [text('Here it is.')]),
  msg('uA', 'a2', 'user', [text('thanks (branch A)')]),
  msg('aA', 'uA', 'assistant', [text('welcome')]),
  msg('uB', 'a2', 'user', [text('present it (branch B)')]),
  { id: 'p1', parent_id: 'uB', kind: 'presentation', presentation: { tool_use_id: 'c1', ...card, ack: 'seen' } },
  msg('aB', 'p1', 'assistant', [text('presented')]),
  msg('uA2', 'aA', 'user', [text('and again (branch A)')]),
  msg('uB2', 'aB', 'user', [text('and again (branch B)')]),
]);

describe('turn cache', () => {
  it.each([
    ['', null, [0, 0, 0]],
    [", costing every turn from the reader's notes", 4, [2, 4, 4]],
  ] as const)(
    'reuses a closed turn across leaves and reshapes it where a newer presentation acks its card call%s',
    (_, notes, noted) => {
      const l = Ledger.fromBytes(LEDGER, notes === null ? {} : { noteFullCosts: notes });
      const cache = turnCacheOf(l);
      const at = (id: string) => l.indexOf(id)!;
      const fresh = (id: string) =>
        project(Ledger.fromBytes(LEDGER), at(id), { plan: 'none', profile: DEFAULT_PROFILE });
      const planned = (id: string) => planLeaf(l, at(id), { plan: 'none', profile: DEFAULT_PROFILE });

      const a = planned('uA2'); // closed: u1, uA
      expect(cache.stats).toEqual({ turnsProjected: 2, turnsReused: 0, turnsNoted: noted[0] });
      // A leaf that reuses nothing leaves its unacked card call (c1) unindexed: no one asks yet.
      expect(cache.callsIndexed).toBe(0);
      // Branch B presents c1 after u1: u1's Full shape differs there, so it is shaped again (and uB).
      const b = planned('uB2'); // closed: u1, uB
      expect(cache.stats).toEqual({ turnsProjected: 4, turnsReused: 0, turnsNoted: noted[1] }); // on B, a1 (its card call presented) from its line
      expect(b.planRows.turnId(0)).toBe('u1');
      expect(b.planRows.tokens(0)).toBeLessThan(a.planRows.tokens(0));
      // Each branch again, and a leaf without the presentation: every turn reused, each in its own shape.
      planned('uA2');
      // Reusing u1 on A asks whether B's presentation acks c1: the pending call is looked up, not indexed.
      expect(cache.callsIndexed).toBe(0);
      planned('uB2');
      const a1 = planned('aA'); // closed: u1, uA (answered)
      expect(cache.stats).toEqual({ turnsProjected: 4, turnsReused: 6, turnsNoted: noted[2] });
      // Every plan equals the projection computed from scratch.
      for (const [id, p] of [
        ['uA2', a],
        ['uB2', b],
        ['aA', a1],
      ] as const) {
        const want = fresh(id);
        expect(allPlanRows(p.planRows)).toEqual(want.plan);
        expect(p.messages(0, p.messageCount)).toEqual(want.messages);
      }
    },
  );
});

describe('turn costs kept with the index (reopen is instant)', () => {
  it('a cache restored from its plain data reuses every turn, each in its own shape, and plans as a fresh one', () => {
    const l = Ledger.fromBytes(LEDGER);
    const leaves = ['uA2', 'uB2', 'aA'];
    const opts = { plan: 'none', profile: DEFAULT_PROFILE } as const;
    for (const id of leaves) planLeaf(l, l.indexOf(id)!, opts);
    const kept = exportTurns(l);
    expect(kept?.full).toHaveLength(4); // u1 twice (acked on B, not on A), uA, uB
    expect(TurnCache.fromColumns(turnColumns(kept!), l.index.count)?.size).toBe(4);

    const again = Ledger.fromBytes(LEDGER);
    adoptTurnColumns(again, turnColumns(kept!), again.index.count); // read when first asked for
    const cache = turnCacheOf(again);
    expect(cache.size).toBe(4);
    for (const id of [...leaves, 'uB', 'a2']) {
      const p = planLeaf(again, again.indexOf(id)!, opts);
      const want = project(Ledger.fromBytes(LEDGER), again.indexOf(id)!, opts);
      expect(allPlanRows(p.planRows)).toEqual(want.plan);
      expect(p.messages(0, p.messageCount)).toEqual(want.messages);
    }
    expect(cache.stats.turnsProjected).toBe(0);
    expect(cache.stats.turnsReused).toBeGreaterThan(4);
  });

  it('a kept cache naming entries the index does not hold, or out of order, is refused', () => {
    const l = Ledger.fromBytes(LEDGER);
    planLeaf(l, l.indexOf('uB2')!, { plan: 'none', profile: DEFAULT_PROFILE });
    const kept = exportTurns(l) as KeptTurns;
    const n = l.index.count;
    const ok = (k: KeptTurns, count = n): boolean => TurnCache.fromColumns(turnColumns(k), count) !== null;
    expect(ok(kept)).toBe(true);
    expect(ok(kept, kept.full[0][1])).toBe(false); // its last entry is past such an index
    const f = kept.full[0];
    const bads = [
      [f[0], f[1], 0, f[3], f[4], f[5], f[6]],
      [f[0], f[1], f[2], -1, f[4], f[5], f[6]],
      [f[0], f[1], f[2], f[3], [...f[4]].reverse(), f[5], f[6]],
      [f[0], f[1], f[2], f[3], [f[1] + 1], f[5], f[6]],
      [f[0], f[1], f[2], f[3], f[4], [['c1', n]], f[6]],
      [f[1], f[0] - 1, f[2], f[3], f[4], f[5], f[6]],
    ] as KeptTurns['full'];
    for (const bad of bads) expect(ok({ ...kept, full: [bad] })).toBe(false);
    expect(ok({ full: kept.full, small: [['k', 0.5]] })).toBe(false);
    // Columns whose counts run past their arrays, or leave some over.
    const cols = turnColumns(kept);
    const counts = cols.facts.slice();
    counts[3] += 1; // one more source than kept
    expect(TurnCache.fromColumns({ ...cols, facts: counts }, n)).toBeNull();
    expect(TurnCache.fromColumns({ ...cols, strings: [...cols.strings, 'x'] }, n)).toBeNull();
    expect(TurnCache.fromColumns({ ...cols, bpt: cols.bpt.subarray(1) }, n)).toBeNull();
    // Kept columns that do not hold together give an empty cache: the turns are shaped again.
    const fresh = Ledger.fromBytes(LEDGER);
    adoptTurnColumns(fresh, turnColumns({ ...kept, full: [bads[3]] }), n);
    expect(turnCacheOf(fresh).size).toBe(0);
    planLeaf(fresh, fresh.indexOf('uB2')!, { plan: 'none', profile: DEFAULT_PROFILE });
    expect(turnCacheOf(fresh).stats.turnsProjected).toBe(2);
  });
});
