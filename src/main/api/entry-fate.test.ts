import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EntryFateRow } from '../../shared/api-features';
import type { CapacityProfile, TurnOverride } from '../../shared/ledger-types';
import { generateSession } from '../../generator';
import { fixtureCases } from '../../test-support/fixtures';
import { chainToRoot } from '../core/chain';
import { entryFatesSteps, type EntryFate } from '../core/entry-fate';
import { Ledger } from '../core/ledger';
import { projectLeaf, type LeafProjection } from '../core/projection';
import { ApiError } from './api-backend';
import { entryFateOf } from './entry-fate-handler';
import { fatePlannerSteps } from './fate-planner';
import { atOnce } from '../core/cancel';

const fixtures = fixtureCases()
  .filter((c) => c.name !== 'missing-header')
  .map((c) => ({ name: c.name, file: c.file, ledger: Ledger.fromBytes(readFileSync(c.file)) }));

/**
 * The reference: how `project()` at turn end `at` carries entry `e` — the first projected message
 * that names it, else its turn's Card or Packet in the plan, else hidden behind the newest reset,
 * else not sent.
 */
function referenceAt(
  ledger: Ledger,
  lp: LeafProjection,
  e: number,
): Pick<EntryFateRow, 'fidelity' | 'tokens'> & { packet: string | null; reset: string | null } {
  const id = ledger.index.ids[e];
  const pos = lp.chain.indexOf(e);
  const resetId = lp.ctx.resetPos >= 0 ? ledger.index.ids[lp.chain[lp.ctx.resetPos]] : null;
  if (pos === 0 && ledger.index.kindName(e) === 'header')
    return { fidelity: 'system', tokens: 0, packet: null, reset: null };
  const m = lp.projection.messages.find((x) => x.fidelity !== 'tail' && x.source_ids.includes(id));
  if (m) {
    return {
      fidelity: m.fidelity,
      tokens: m.fidelity === 'tail' ? 0 : m.tokens,
      packet: m.fidelity === 'packet' ? id : null,
      reset: m.fidelity === 'reset' ? id : null,
    };
  }
  const turn = lp.turnIndex.turns.find((t) => t.entries.includes(e));
  const row = turn && lp.projection.plan.find((r) => r.turn_id === turn.id);
  // Everything of a Card or Packet turn is carried by it, but an intent: the tail carries that.
  if (row && row.fidelity !== 'full' && ledger.index.kindName(e) !== 'intent') {
    return { fidelity: row.fidelity, tokens: row.tokens, packet: row.packet_id, reset: null };
  }
  if (lp.projection.messages.at(-1)?.source_ids.includes(id))
    return { fidelity: 'tail', tokens: 0, packet: null, reset: null };
  if (pos < lp.base) return { fidelity: 'reset-hidden', tokens: 0, packet: null, reset: resetId };
  return { fidelity: 'not-sent', tokens: 0, packet: null, reset: null };
}

/** Fidelities the property tests met (each must be exercised). */
const seen = new Set<string>();

/** Every entry of `leaf`'s chain: its fate agrees with `project()` at every turn end from it on. */
function expectFatesMatchProjection(
  ledger: Ledger,
  leaf: number,
  plan: 'none' | 'auto',
  profile: CapacityProfile,
  overrides: Record<string, TurnOverride> = {},
  every = 1,
): number {
  const req = { key: 'k', leaf: null, plan, profile, overrides };
  const planner = atOnce(fatePlannerSteps(ledger, leaf, req));
  const chain = chainToRoot(ledger.index, leaf);
  const positions = Array.from(chain, (_, k) => k).filter((k) => k % every === 0);
  const overridden = new Set(Object.keys(overrides));
  const fates: EntryFate[] = atOnce(entryFatesSteps(ledger, planner, positions, profile.bytes_per_token, overridden));
  const ov = new Map(Object.entries(overrides));
  // One projection per turn end, shared by every entry (the reference is the core's own).
  const projections = new Map<number, LeafProjection>();
  const projectionAt = (at: number): LeafProjection => {
    let lp = projections.get(at);
    if (!lp) projections.set(at, (lp = projectLeaf(ledger, at, { plan, profile, overrides: ov })));
    return lp;
  };
  let rows = 0;
  fates.forEach((f, k) => {
    const e = chain[positions[k]];
    expect(f.entry).toBe(ledger.index.ids[e]);
    for (const r of f.rows) {
      const at = ledger.indexOf(r.at)!;
      const ref = referenceAt(ledger, projectionAt(at), e);
      const got = { fidelity: r.fidelity, tokens: r.tokens, packet: r.packet?.id ?? null, reset: r.reset };
      expect({ entry: f.entry, at: r.at, ...got }).toEqual({ entry: f.entry, at: r.at, ...ref });
      rows++;
      seen.add(r.fidelity);
    }
  });
  return rows;
}

describe('entry fate', () => {
  it('agrees with project() at every turn end, for every entry of every fixture (both plans, tight windows)', () => {
    let rows = 0;
    for (const { name, ledger } of fixtures) {
      for (const leaf of ledger.index.leaves()) {
        for (const plan of ['none', 'auto'] as const) {
          for (const window of [200000, 400, 150]) {
            try {
              rows += expectFatesMatchProjection(ledger, leaf, plan, { window, reserve: 10, bytes_per_token: 4 });
            } catch (e) {
              throw new Error(
                `${name} leaf ${ledger.index.ids[leaf]} ${plan} window ${window}: ${(e as Error).message}`,
                { cause: e },
              );
            }
          }
        }
      }
    }
    expect(rows).toBeGreaterThan(500);
  });

  it('agrees with project() on generated chains with cards, packets, resets and overrides', () => {
    for (const seed of [3, 11]) {
      const ledger = Ledger.fromBytes(generateSession({ seed, entries: 500, cwd: '/w', branchChance: 0 }).bytes);
      const leaf = ledger.index.activeLeaf;
      const rows = expectFatesMatchProjection(
        ledger,
        leaf,
        'auto',
        { window: 9000, reserve: 1000, bytes_per_token: 4 },
        {},
        1,
      );
      expect(rows).toBeGreaterThan(100);
      // Some turns forced: a Card where the chain has one, Full elsewhere.
      const lp = projectLeaf(ledger, leaf, {
        plan: 'auto',
        profile: { window: 9000, reserve: 1000, bytes_per_token: 4 },
      });
      const overrides: Record<string, TurnOverride> = {};
      lp.projection.plan.slice(0, 6).forEach((r, k) => {
        overrides[r.turn_id] = k % 2 === 0 ? { fidelity: 'card' } : { fidelity: 'full' };
      });
      expectFatesMatchProjection(
        ledger,
        leaf,
        'auto',
        { window: 9000, reserve: 1000, bytes_per_token: 4 },
        overrides,
        1,
      );
    }
  });

  it('says from which turn end a directive is a card, and by how much the budget was exceeded', () => {
    const ledger = fixtures.find((f) => f.name === 'packets')!.ledger;
    const leaf = ledger.index.activeLeaf;
    const profile = { window: 700, reserve: 0, bytes_per_token: 4 };
    const fate = atOnce(entryFateOf(ledger, leaf, { key: 'k', leaf: null, plan: 'auto', profile, entry: 'e0003' }));
    expect(fate.rows.map((r) => r.fidelity)).toEqual(['full', 'full', 'card', 'full', 'packet', 'packet', 'packet']);
    expect(fate.change).toMatchObject({ turn: 3, fidelity: 'card', comesBack: true });
    const r = fate.rows[2];
    expect(fate.change!.reason).toBe(
      `at turn 3, its turn is sent as a card because the closed turns needed ${r.fullNeed} tokens at Full, ${r.fullNeed - r.available} over the budget of ${r.available}`,
    );
    const wide = atOnce(
      entryFateOf(ledger, leaf, {
        key: 'k',
        leaf: null,
        plan: 'auto',
        profile: { ...profile, window: 900 },
        entry: 'e0003',
      }),
    );
    expect(wide.change!.reason).toMatch(/^from turn 5 on, packet e0027 replaced turns 1–3 because/);
    expect(wide.rows[4].packet).toEqual({ id: 'e0027', first: 1, last: 3 });
  });

  it('names the reset that hides an entry; an intent before it is still sent in the tail', () => {
    const ledger = fixtures.find((f) => f.name === 'reset')!.ledger;
    const req = {
      key: 'k',
      leaf: null,
      plan: 'auto' as const,
      profile: { window: 200000, reserve: 0, bytes_per_token: 4 },
    };
    const fate = atOnce(entryFateOf(ledger, ledger.index.activeLeaf, { ...req, entry: 'e0003' }));
    expect(fate.rows.map((r) => [r.turn, r.fidelity, r.reset])).toEqual([
      [1, 'full', null],
      [2, 'reset-hidden', 'e0008'],
      [3, 'reset-hidden', 'e0015'],
      [4, 'reset-hidden', 'e0015'],
    ]);
    expect(fate.change?.reason).toBe(
      'from turn 2 on, it stands before reset e0008, which replaced everything before it with a summary',
    );
    const intent = atOnce(entryFateOf(ledger, ledger.index.activeLeaf, { ...req, entry: 'e0007' }));
    expect(new Set(intent.rows.map((r) => r.fidelity))).toEqual(new Set(['tail']));
    expect(intent.change).toBeNull();
  });

  it('says when a newer intent took the place of an intent in the tail', () => {
    const bytes = readFileSync(fixtures.find((f) => f.name === 'linear')!.file);
    const line = JSON.stringify({
      id: 'i-new',
      parent_id: 'e0021',
      ts: '2026-11-29T12:00:00.000Z',
      prev_hash: null,
      kind: 'intent',
      intent: { reading: 'r', engagement: 'e', provenance: 'p', model_visible: 'newer' },
    });
    const ledger = Ledger.fromBytes(Buffer.concat([bytes, Buffer.from(line + '\n')]));
    const req = {
      key: 'k',
      leaf: null,
      plan: 'auto' as const,
      profile: { window: 200000, reserve: 0, bytes_per_token: 4 },
    };
    const fate = atOnce(entryFateOf(ledger, ledger.index.activeLeaf, { ...req, entry: 'e0018' }));
    expect(fate.rows.at(-1)).toMatchObject({ at: 'i-new', fidelity: 'not-sent' });
    expect(fate.change?.reason).toMatch(/it is not sent: a newer intent \(i-new\) replaced it in the tail$/);
  });

  it('refuses an entry that is not on the chain of the leaf', () => {
    const ledger = fixtures.find((f) => f.name === 'branching')!.ledger;
    const [a, b] = ledger.index.leaves();
    const req = {
      key: 'k',
      leaf: null,
      plan: 'auto' as const,
      profile: { window: 200000, reserve: 0, bytes_per_token: 4 },
    };
    expect(() => atOnce(entryFateOf(ledger, a, { ...req, entry: ledger.index.ids[b] }))).toThrow(ApiError);
    expect(() => atOnce(entryFateOf(ledger, a, { ...req, entry: 'nope' }))).toThrow(/no entry/);
  });
});
