/**
 * A plan that starts from the chain facts of a leaf above (an append, the next entry) is the
 * plan computed from the whole chain: same projection, same messages, same links, on every
 * fixture and on generated sessions with branches, card calls, turn cards, packets and resets.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { generateSession } from '../../generator';
import { FIXTURES } from '../../test-support/fixtures';
import { chainToRoot } from './chain';
import { planLeaf, projectionOf, type LeafPlan, type PlanOptions } from './leaf-plan';
import { Ledger } from './ledger';
import { turnCacheOf } from './turn-cache';

/** Everything a plan answers, for comparing two plans of one leaf. */
function answers(p: LeafPlan) {
  return {
    summary: projectionOf(p, []),
    messageCount: p.messageCount,
    chain: p.chain,
    base: p.base,
    messages: p.messages(0, p.messageCount),
    projectedAs: Array.from(p.chain, (_, pos) => p.projectedAs(pos)),
    fidelity: Array.from({ length: p.messageCount }, (_, m) => p.fidelityOf(m)),
    closed: p.chainFacts.closed.map((c) => [c.turn.id, c.turn.entries, c.firstPos]),
    facts: p.chainFacts.facts.map((f) => [f.tokens, [...f.sources]]),
    lastTurnPos: p.chainFacts.lastTurnPos,
  };
}

/**
 * Each leaf's plan from the plan `step` entries above it equals the fresh plan: every position of
 * every leaf's chain, or `sample` positions spread over the chains of the first four leaves.
 */
function checkExtended(ledger: Ledger, opts: PlanOptions, step: number, sample?: number): number {
  const ix = ledger.index;
  let extended = 0;
  for (const leaf of sample ? ix.leaves().slice(0, 4) : ix.leaves()) {
    const chain = chainToRoot(ix, leaf);
    const stride = sample ? Math.max(1, Math.floor(chain.length / sample)) : 1;
    // A negative step plans from the entry below (a click back up the chain).
    for (let pos = Math.max(step, 0); pos < chain.length + Math.min(step, 0); pos += stride) {
      const above = planLeaf(ledger, chain[pos - step], opts);
      const fresh = planLeaf(ledger, chain[pos], opts);
      const before = turnCacheOf(ledger).stats.turnsProjected;
      const next = planLeaf(ledger, chain[pos], opts, above.chainFacts);
      expect(answers(next)).toEqual(answers(fresh));
      // Shaped again: at most the turns the new entries close (the cache had them from `fresh`).
      expect(turnCacheOf(ledger).stats.turnsProjected).toBe(before);
      extended++;
    }
  }
  return extended;
}

const tight: PlanOptions = { plan: 'auto', profile: { window: 3000, reserve: 0, bytes_per_token: 4 } };
const roomy: PlanOptions = { plan: 'none', profile: DEFAULT_PROFILE };

describe('a plan from the leaf above (an append indexes only what it added)', () => {
  it('equals the whole-chain plan on every fixture, one and three entries below', () => {
    for (const name of readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl'))) {
      const ledger = Ledger.fromBytes(readFileSync(join(FIXTURES, name)));
      if (ledger.index.count === 0) continue;
      for (const opts of [tight, roomy]) {
        checkExtended(ledger, opts, 1);
        checkExtended(ledger, opts, 3);
        checkExtended(ledger, opts, -1);
        checkExtended(ledger, opts, -5);
      }
    }
  });

  it(
    'equals the whole-chain plan on generated sessions (branches, card calls, cards, packets, resets)',
    { timeout: 120_000 },
    () => {
      for (const seed of [3, 11]) {
        const g = generateSession({ seed, entries: 1200, cwd: '/w', branchChance: 0.05, bigLines: false });
        const ledger = Ledger.fromBytes(g.bytes);
        const kinds = new Set(Array.from({ length: ledger.index.count }, (_, i) => ledger.index.kindName(i)));
        for (const k of ['presentation', 'turn_card', 'compaction']) expect(kinds.has(k)).toBe(true);
        expect(checkExtended(ledger, tight, 1, 30)).toBeGreaterThan(60);
        checkExtended(ledger, roomy, 4, 10);
        // Far below and far above (clicks spread over a long chain), and across a reset.
        expect(checkExtended(ledger, tight, 300, 10)).toBeGreaterThan(10);
        expect(checkExtended(ledger, tight, -300, 10)).toBeGreaterThan(10);
        checkExtended(ledger, roomy, -40, 20);
      }
    },
  );

  it('shapes a kept turn again when a new entry presents its card call (§5.3: the newest presentation wins)', () => {
    let prev: string | null = null;
    const line = (e: Record<string, unknown>, k: number): string => {
      const l = JSON.stringify({ ts: new Date(Date.UTC(2026, 10, 29, 9, 0, k)).toISOString(), prev_hash: prev, ...e });
      prev = createHash('sha256').update(l, 'utf8').digest('hex');
      return `${l}\n`;
    };
    const msg = (id: string, parent: string, role: string, content: unknown[]) => ({
      id,
      parent_id: parent,
      kind: 'message',
      message: { role, content },
    });
    const card = { card_type: 'diff', payload: { lines: 'x'.repeat(400) } };
    const ledger = Ledger.fromBytes(
      Buffer.from(
        [
          { id: 'h', parent_id: null, kind: 'header', session_id: 's', system_prompt: 'sys', tools: [], cwd: '/w' },
          msg('u1', 'h', 'user', [{ type: 'text', text: 'show me the diff' }]),
          msg('a1', 'u1', 'assistant', [{ type: 'tool_use', id: 'c1', name: 'show_card', input: card }]),
          msg('r1', 'a1', 'tool', [{ type: 'tool_result', tool_use_id: 'c1', content: 'Card shown.' }]),
          msg('a2', 'r1', 'assistant', [{ type: 'text', text: 'Here it is.' }]),
          msg('u2', 'a2', 'user', [{ type: 'text', text: 'present it now' }]),
          {
            id: 'p1',
            parent_id: 'u2',
            kind: 'presentation',
            presentation: { tool_use_id: 'c1', ...card, ack: 'seen' },
          },
        ]
          .map(line)
          .join(''),
      ),
    );
    const at = (id: string) => ledger.indexOf(id)!;
    const above = planLeaf(ledger, at('u2'), roomy);
    const next = planLeaf(ledger, at('p1'), roomy, above.chainFacts);
    expect(answers(next)).toEqual(answers(planLeaf(ledger, at('p1'), roomy)));
    // u1 (a kept turn) is cheaper with its card call acked.
    expect(next.planRows.tokens(0)).toBeLessThan(above.planRows.tokens(0));
  });

  it('is right from a leaf of another branch, from the root, and from several planned leaves', () => {
    const ledger = Ledger.fromBytes(readFileSync(join(FIXTURES, 'branching.jsonl')));
    const ix = ledger.index;
    const [a, b] = ix.leaves();
    const other = planLeaf(ledger, a, roomy);
    expect(answers(planLeaf(ledger, b, roomy, other.chainFacts))).toEqual(answers(planLeaf(ledger, b, roomy)));
    const root = planLeaf(ledger, chainToRoot(ix, b)[1], roomy);
    expect(answers(planLeaf(ledger, b, roomy, root.chainFacts))).toEqual(answers(planLeaf(ledger, b, roomy)));
    const both = [other.chainFacts, root.chainFacts];
    expect(answers(planLeaf(ledger, b, roomy, both))).toEqual(answers(planLeaf(ledger, b, roomy)));
  });

  it('on generated branches: a leaf planned from every other leaf equals its fresh plan', { timeout: 60_000 }, () => {
    const g = generateSession({ seed: 5, entries: 900, cwd: '/w', branchChance: 0.08, bigLines: false });
    const ledger = Ledger.fromBytes(g.bytes);
    const leaves = ledger.index.leaves().slice(0, 6);
    expect(leaves.length).toBeGreaterThan(2);
    for (const opts of [tight, roomy]) {
      const planned = leaves.map((l) => planLeaf(ledger, l, opts));
      for (const leaf of leaves) {
        const fresh = answers(planLeaf(ledger, leaf, opts));
        for (const p of planned) expect(answers(planLeaf(ledger, leaf, opts, p.chainFacts))).toEqual(fresh);
      }
    }
  });

  it('a click far down or back up a long chain indexes only where it parts: kept turns come as they were', () => {
    const g = generateSession({
      seed: 7,
      entries: 3000,
      cwd: '/w',
      shape: 'uncompacted',
      branchChance: 0,
      bigLines: false,
    });
    const ledger = Ledger.fromBytes(g.bytes);
    const chain = chainToRoot(ledger.index, ledger.index.activeLeaf);
    const upper = planLeaf(ledger, chain[1000], roomy);
    const lower = planLeaf(ledger, chain[2600], roomy, upper.chainFacts);
    const back = planLeaf(ledger, chain[1500], roomy, lower.chainFacts);
    for (const [from, to] of [
      [upper, lower],
      [lower, back],
    ]) {
      // Every turn before the one they part in is the same object (not indexed again), and so are its facts.
      const kept = Math.min(from.chainFacts.turnIndex.turns.length, to.chainFacts.turnIndex.turns.length) - 1;
      expect(kept).toBeGreaterThan(20);
      for (let k = 0; k < kept; k++) {
        expect(to.chainFacts.turnIndex.turns[k]).toBe(from.chainFacts.turnIndex.turns[k]);
        expect(to.chainFacts.facts[k]).toBe(from.chainFacts.facts[k]);
      }
      expect(answers(to)).toEqual(answers(planLeaf(ledger, to.chainFacts.leaf, roomy)));
    }
  });
});
