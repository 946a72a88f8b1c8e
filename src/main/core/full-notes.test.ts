/**
 * The reader's Full notes (full-notes.ts) only ever save a parse: a leaf planned on a ledger that
 * noted its messages while reading equals the projection of one that did not, on every leaf, for
 * the shapes that make notes hard (computed digests naming the nearest call, ids reused across
 * branches and within a chain, presented card calls, control nudges, thinking-only messages,
 * malformed messages). And the first leaf after a whole read reads none of its chain's messages again
 * but those holding a presented card call: counted, never timed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, type CapacityProfile } from '../../shared/ledger-types';
import { generateSession } from '../../generator';
import { ledgerBytes } from '../../reliability/ledger-lines';
import { fixtureCases } from '../../test-support/fixtures';
import { planLeaf, type PlanOptions } from './leaf-plan';
import { allPlanRows } from '../../shared/plan-rows';
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
        expect(allPlanRows(got.planRows), `leaf ${noted.index.ids[leaf]} ${plan} ${profile.window}`).toEqual(want.plan);
        expect(got.messages(0, got.messageCount)).toEqual(want.messages);
      }
    }
  }
  const { turnsProjected, turnsNoted } = turnCacheOf(noted).stats;
  return { projected: turnsProjected, noted: turnsNoted };
}

describe('Full notes (parse once)', () => {
  it('plan every leaf of the hard cases as without notes, and note the turns they can', () => {
    const { projected, noted } = expectSameAsWithoutNotes(HARD);
    expect(noted).toBeGreaterThan(0);
    expect(noted).toBeLessThan(projected); // the far result and the one whose call is on another branch
  });

  it('notes no entry whose result names a call on another branch or far above; nothing for what shapes to no message', () => {
    const l = Ledger.fromBytes(HARD, { noteFullCosts: BPT });
    const notes = l.fullNotes!;
    const at = (id: string) => l.indexOf(id)!;
    const tokens = (id: string) => notes.tokensOf(at(id), BPT);
    for (const id of ['u1', 'a1', 'r1', 'a3', 'r3', 'a4', 'r4', 'a5', 'aX', 'aY', 'rY']) {
      expect(tokens(id), id).toBeGreaterThan(0);
    }
    // The thinking-only message, the control nudge, the malformed ones, the other kinds.
    for (const id of ['h', 'a2', 'n1', 'bad1', 'bad2', 'p1', 'tick0']) expect(tokens(id), id).toBeNull();
    expect(tokens('rX')).toBeUndefined(); // tb's newest call is on branch Y
    expect(tokens('rXq')).toBeUndefined(); // its call is 71 steps up
    expect(notes.tokensOf(at('u1'), BPT + 1)).toBeUndefined(); // another bytes_per_token
    // Card-call candidates: every tool_use with a string id, duplicates too.
    expect(notes.callsOf(at('a1'))).toEqual(['t1', 't1', 't2']);
    expect(notes.callsOf(at('a3'))).toEqual(['t1', 't9']);
    expect(notes.callsOf(at('aX'))).toEqual(['tb', 'c1']);
    expect(notes.callsOf(at('r1'))).toEqual([]);
  });

  it('looks up and records exactly the card-call candidates callsOf lists, and tells whether one is presented', () => {
    const l = Ledger.fromBytes(HARD, { noteFullCosts: BPT });
    const notes = l.fullNotes!;
    const presentations = new Map([['t2', 7]]);
    for (let i = 0; i < l.index.count; i++) {
      const seen = new Map<string, number>();
      const presented = notes.lookUpCalls(i, presentations, seen);
      const calls = notes.callsOf(i);
      expect([...seen.keys()], l.index.ids[i]).toEqual([...new Set(calls)]);
      for (const id of calls) expect(seen.get(id)).toBe(presentations.get(id) ?? -1);
      expect(presented, l.index.ids[i]).toBe(calls.includes('t2'));
    }
    expect(notes.lookUpCalls(l.indexOf('a1')!, presentations, new Map())).toBe(true);
    expect(notes.lookUpCalls(l.indexOf('a3')!, presentations, new Map())).toBe(false);
  });

  it('after a resume, a result whose call was read before it is not taken for one that names no call', async () => {
    const cut = HARD.indexOf('{"ts"', HARD.indexOf('"id":"a1"')); // the kept index ends with a1 (t1's call)
    const snap = Ledger.fromBytes(HARD.subarray(0, cut)).snapshot();
    expect(snap).not.toBeNull();
    const resumed = await Ledger.resume(new MemorySource(HARD), snap!, { noteFullCosts: BPT });
    expect(resumed.fullNotes?.tokensOf(resumed.indexOf('r1')!, BPT)).toBeUndefined();
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
        const got = few.notes.tokensOf(i, BPT);
        if (got === undefined) left++;
        else expect(got).toBe(all.notes.tokensOf(i, BPT));
        expect(few.notes.callsOf(i)).toEqual(got === undefined ? [] : all.notes.callsOf(i));
      }
    }
    expect(left).toBeGreaterThan(0);
    // x1's result: its call's name was dropped with the older generation.
    const r = notesOf(parallel).index.indexOf('r')!;
    expect(notesOf(parallel).notes.tokensOf(r, BPT)).toBeGreaterThan(0);
    expect(notesOf(parallel, 1).notes.tokensOf(r, BPT)).toBeUndefined();
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

  it('the first leaf after a whole read costs every closed turn from notes, reading again only messages holding a presented call', () => {
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
    expect(withNotes.turnsNoted).toBe(withNotes.turnsProjected);
    const plainLedger = Ledger.fromBytes(g.bytes);
    const plain = work(plainLedger);
    expect(plain.turnsNoted).toBe(0);
    // Its ids increase (UUIDv7): searched, never mapped — nor did a turn shaped from its lines map them.
    expect([noted.index.mappedIds, plainLedger.index.mappedIds]).toEqual([0, 0]);
    expect(plain.turnsProjected).toBe(withNotes.turnsProjected);
    // The open turn's and the tail's messages, and the few assistant messages with a presented card
    // call: 33 of the 2,686 entries the same leaf reads without notes.
    expect(withNotes.materialised * 20).toBeLessThan(plain.materialised);
  });
});
