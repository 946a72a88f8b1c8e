/**
 * The reader's Full notes (full-notes.ts) only ever save a parse: a leaf planned on a ledger that
 * noted its messages while reading equals the projection of one that did not, on every leaf, for
 * the shapes that make notes hard (computed digests naming the nearest call, ids reused across
 * branches and within a chain, presented card calls, control nudges, thinking-only messages,
 * malformed messages). And the first leaf after a whole read parses none of its noted turns again:
 * counted, never timed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, type CapacityProfile } from '../../shared/ledger-types';
import { generateSession } from '../../generator';
import { ledgerBytes } from '../../reliability/ledger-lines';
import { fixtureCases } from '../../test-support/fixtures';
import { planLeaf, type PlanOptions } from './leaf-plan';
import { chainToRoot } from './chain';
import { MemorySource } from './byte-source';
import { FullNotes } from './full-notes';
import { Ledger } from './ledger';
import { LedgerIndex } from './ledger-index';
import { LineFeeder } from './line-feeder';
import { LineReader } from './line-reader';
import { project } from './projection';
import { turnCacheOf } from './turn-cache';

const BPT = DEFAULT_PROFILE.bytes_per_token;

const msg = (id: string, parent: string, role: string, content: unknown[], meta?: unknown) => ({
  id,
  parent_id: parent,
  kind: 'message',
  message: { role, content },
  ...(meta === undefined ? {} : { meta }),
});
const text = (t: string) => ({ type: 'text', text: t });
const use = (id: unknown, name?: unknown) => ({
  type: 'tool_use',
  id,
  ...(name === undefined ? {} : { name }),
  input: { path: '/w/src/' + String(id) },
});
const result = (id: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'tool_result',
  tool_use_id: id,
  content: `output of ${String(id)} `.repeat(40),
  ...extra,
});
const card = { card_type: 'diff', payload: { lines: 'x'.repeat(400) } };
const ticks = (from: string, n: number) =>
  Array.from({ length: n }, (_, k) => ({
    id: `tick${k}`,
    parent_id: k === 0 ? from : `tick${k - 1}`,
    kind: 'activity',
    activity: { text: `tick ${k}` },
  }));

// Every case that makes a note hard, on one tree (parents always precede children).
const HARD = ledgerBytes([
  { id: 'h', parent_id: null, kind: 'header', session_id: 's', system_prompt: 'sys', tools: [], cwd: '/w' },
  msg('u1', 'h', 'user', [text('look around')]),
  // A duplicate id in one message (its first named block names it), a numeric id, an unnamed call.
  msg('a1', 'u1', 'assistant', [
    { type: 'thinking', thinking: 'hmm' },
    use('t1', 'read'),
    use('t1', 'dup'),
    use(42, 'num'),
    use('t2'),
  ]),
  msg('r1', 'a1', 'tool', [result('t1'), result('t2'), result(7), result('t1', { digest: 'given digest' })]),
  msg('a2', 'r1', 'assistant', [{ type: 'thinking', thinking: 'only thinking' }]),
  msg('n1', 'a2', 'user', [text('keep going')], { control: { kind: 'nudge' } }),
  // The same id called again, nearer, with another name; then an unnamed nearer call of an older named one.
  msg('a3', 'n1', 'assistant', [use('t1', 'write'), use('t9', 'old')]),
  msg('r3', 'a3', 'tool', [result('t1')]),
  msg('a4', 'r3', 'assistant', [use('t9')]),
  msg('r4', 'a4', 'tool', [result('t9')]),
  { id: 'bad1', parent_id: 'r4', kind: 'message', message: { role: 'system', content: [text('not a role')] } },
  { id: 'bad2', parent_id: 'bad1', kind: 'message', message: { role: 'user', content: 'not an array' } },
  msg('a5', 'bad2', 'assistant', [text('done with turn one')]),
  // Two branches calling one id under different names; X's result is read after Y's call.
  msg('uX', 'a5', 'user', [text('branch X')]),
  msg('aX', 'uX', 'assistant', [use('tb', 'bx'), { type: 'tool_use', id: 'c1', name: 'show_card', input: card }]),
  msg('uY', 'a5', 'user', [text('branch Y')]),
  msg('aY', 'uY', 'assistant', [use('tb', 'by')]),
  msg('rY', 'aY', 'tool', [result('tb')]),
  msg('rX', 'aX', 'tool', [result('tb'), result('c1')]),
  msg('aX2', 'rX', 'assistant', [text('X answered')]),
  msg('aY2', 'rY', 'assistant', [text('Y answered')]),
  // X goes on twice: once presenting its card call (c1's input becomes the ack), once not.
  msg('uXp', 'aX2', 'user', [text('present it')]),
  { id: 'p1', parent_id: 'uXp', kind: 'presentation', presentation: { tool_use_id: 'c1', ...card, ack: 'seen' } },
  msg('aXp', 'p1', 'assistant', [text('presented')]),
  msg('uXq', 'aX2', 'user', [text('do not present it')]),
  msg('aXq', 'uXq', 'assistant', [use('far', 'distant')]),
  // A result further from its call than a note looks (notes then leave it to the line).
  ...ticks('aXq', 70),
  msg('rXq', 'tick69', 'tool', [result('far')]),
  msg('aXq2', 'rXq', 'assistant', [text('far answered')]),
  msg('uZ', 'aXq2', 'user', [text('the end')]),
  msg('uP', 'aXp', 'user', [text('after the presentation')]),
]);

const PROFILES: CapacityProfile[] = [DEFAULT_PROFILE, { window: 600, reserve: 100, bytes_per_token: BPT }];

/** Plans every leaf of `bytes` on one noting ledger (so its turn cache is shared) and checks each against a fresh projection. */
function expectSameAsWithoutNotes(
  bytes: Buffer,
  leaves?: number[],
  noted = Ledger.fromBytes(bytes, { noteFullCosts: BPT }),
): { projected: number; noted: number } {
  const plain = Ledger.fromBytes(bytes);
  expect(noted.fullNotes).not.toBeNull();
  expect(plain.fullNotes).toBeNull();
  for (const leaf of leaves ?? [...Array(noted.index.count).keys()]) {
    for (const profile of PROFILES) {
      for (const plan of ['none', 'auto'] as const) {
        const opts: PlanOptions = { plan, profile };
        const got = planLeaf(noted, leaf, opts);
        const want = project(plain, leaf, opts);
        expect(got.summary.plan, `leaf ${noted.index.ids[leaf]} ${plan} ${profile.window}`).toEqual(want.plan);
        expect(got.messages(0, got.messageCount)).toEqual(want.messages);
      }
    }
  }
  const { turnsProjected, turnsNoted } = turnCacheOf(noted).stats;
  return { projected: turnsProjected, noted: turnsNoted };
}

describe('Full notes (issue 9: parse once)', () => {
  it('plan every leaf of the hard cases as without notes, and note the turns they can', () => {
    const { projected, noted } = expectSameAsWithoutNotes(HARD);
    expect(noted).toBeGreaterThan(0);
    expect(noted).toBeLessThan(projected); // the presented card call and the far result are shaped from their lines
  });

  it('a turn whose result names a call on another branch, or far above, or a presented card call, is not noted', () => {
    const l = Ledger.fromBytes(HARD, { noteFullCosts: BPT });
    const notes = l.fullNotes!;
    const at = (id: string) => l.indexOf(id)!;
    const turnOf = (...ids: string[]) => notes.turn(ids.map(at), BPT);
    // Turn u1: every entry noted; nothing shaped for the nudge, the thinking-only, the malformed.
    const u1 = turnOf('u1', 'a1', 'r1', 'a2', 'n1', 'a3', 'r3', 'a4', 'r4', 'bad1', 'bad2', 'a5');
    expect(u1?.sources).toEqual(['u1', 'a1', 'r1', 'a3', 'r3', 'a4', 'r4', 'a5'].map(at));
    expect(u1?.calls).toEqual(['t1', 't1', 't2', 't1', 't9', 't9']);
    expect(turnOf('uY', 'aY', 'rY', 'aY2')).not.toBeNull();
    expect(turnOf('uX', 'aX', 'rX', 'aX2')).toBeNull(); // tb's newest call is on branch Y
    expect(turnOf('uXq', 'aXq', ...ticks('aXq', 70).map((t) => t.id), 'rXq', 'aXq2')).toBeNull();
    expect(notes.turn([at('u1')], BPT + 1)).toBeNull(); // another bytes_per_token
  });

  it('after a resume, a result whose call was read before it is not taken for one that names no call', async () => {
    const cut = HARD.indexOf('{"ts"', HARD.indexOf('"id":"a1"')); // the kept index ends with a1 (t1's call)
    const snap = Ledger.fromBytes(HARD.subarray(0, cut)).snapshot();
    expect(snap).not.toBeNull();
    const resumed = await Ledger.resume(new MemorySource(HARD), snap!, { noteFullCosts: BPT });
    expect(resumed.fullNotes?.turn([resumed.indexOf('r1')!], BPT)).toBeNull();
    expectSameAsWithoutNotes(HARD, undefined, resumed);
  });

  it('with names remembered for only a few calls, a note is left out or the same, never another', () => {
    const parallel = ledgerBytes([
      { id: 'h', parent_id: null, kind: 'header', session_id: 's', system_prompt: 'sys', tools: [], cwd: '/w' },
      msg('u', 'h', 'user', [text('three at once')]),
      msg('a', 'u', 'assistant', [use('x1', 'one'), use('x2', 'two'), use('x3', 'three')]),
      msg('r', 'a', 'tool', [result('x1'), result('x2'), result('x3')]),
    ]);
    const g = generateSession({ seed: 12, entries: 2500, cwd: '/w', branchChance: 0.05, toolResultBytes: [200, 900] });
    const notesOf = (bytes: Buffer, callsPerGeneration?: number) => {
      const index = new LedgerIndex();
      const notes = new FullNotes(BPT, true, callsPerGeneration);
      new LineFeeder(new LineReader(index, notes), 0).push(bytes);
      return { index, notes };
    };
    let left = 0;
    for (const bytes of [HARD, parallel, g.bytes]) {
      const all = notesOf(bytes);
      const few = notesOf(bytes, 1); // names of the last two calls only
      for (let i = 0; i < all.index.count; i++) {
        const got = few.notes.turn([i], BPT);
        if (got === null) left++;
        else expect(got).toEqual(all.notes.turn([i], BPT));
      }
    }
    expect(left).toBeGreaterThan(0);
    // x1's result: its call's name was dropped with the older generation.
    const r = notesOf(parallel).index.byId.get('r')!;
    expect(notesOf(parallel).notes.turn([r], BPT)).not.toBeNull();
    expect(notesOf(parallel, 1).notes.turn([r], BPT)).toBeNull();
  });

  it('plan every fixture leaf, and sampled leaves of a branching generated session, as without notes', () => {
    for (const c of fixtureCases().filter((f) => f.name !== 'missing-header')) {
      expectSameAsWithoutNotes(readFileSync(c.file));
    }
    const g = generateSession({ seed: 9, entries: 2500, cwd: '/w', branchChance: 0.05, toolResultBytes: [200, 900] });
    const count = Ledger.fromBytes(g.bytes).index.count;
    const sample = Array.from({ length: 40 }, (_, k) => Math.floor(((k + 1) * count) / 41));
    const { noted } = expectSameAsWithoutNotes(g.bytes, sample);
    expect(noted).toBeGreaterThan(0);
  });

  it('the first leaf after a whole read costs its closed turns from notes, parsing only those with a presented call', () => {
    const g = generateSession({ seed: 4, entries: 3000, cwd: '/w', shape: 'uncompacted', toolResultBytes: [200, 900] });
    const leafOf = (l: Ledger) => l.index.activeLeaf;
    const work = (l: Ledger) => {
      const before = l.stats.entriesMaterialised;
      planLeaf(l, leafOf(l), { plan: 'none', profile: DEFAULT_PROFILE });
      return { ...turnCacheOf(l).stats, materialised: l.stats.entriesMaterialised - before };
    };
    const noted = Ledger.fromBytes(g.bytes, { noteFullCosts: BPT });
    const withNotes = work(noted);
    const presented = chainToRoot(noted.index, leafOf(noted)).filter((i) => noted.entry(i).kind === 'presentation');
    expect(withNotes.turnsProjected).toBeGreaterThan(100);
    expect(presented.length).toBeGreaterThan(0);
    // Every closed turn is noted but those whose card call a presentation acks (at most one each).
    expect(withNotes.turnsNoted).toBeGreaterThanOrEqual(withNotes.turnsProjected - presented.length);
    const plain = work(Ledger.fromBytes(g.bytes));
    expect(plain.turnsNoted).toBe(0);
    expect(plain.turnsProjected).toBe(withNotes.turnsProjected);
    // The chain's messages are read for those few turns and the open one only (175 of 2,686 here).
    expect(withNotes.materialised * 5).toBeLessThan(plain.materialised);
  });
});
