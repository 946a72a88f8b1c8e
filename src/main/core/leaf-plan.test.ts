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
import { planLeaf, type LeafPlan, type PlanOptions } from './leaf-plan';
import { Ledger } from './ledger';
import { turnCacheOf } from './turn-cache';

/** Everything a plan answers, for comparing two plans of one leaf. */
function answers(p: LeafPlan) {
  return {
    summary: p.summary,
    messageCount: p.messageCount,
    chain: p.chain,
    base: p.base,
    messages: p.messages(0, p.messageCount),
    projectedAs: p.chain.map((_, pos) => p.projectedAs(pos)),
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
    for (let pos = step; pos < chain.length; pos += stride) {
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
    expect(next.summary.plan[0].tokens).toBeLessThan(above.summary.plan[0].tokens);
  });

  it('is not taken from a leaf that is no ancestor, or too far above', () => {
    const ledger = Ledger.fromBytes(readFileSync(join(FIXTURES, 'branching.jsonl')));
    const ix = ledger.index;
    const [a, b] = ix.leaves();
    const other = planLeaf(ledger, a, roomy);
    expect(answers(planLeaf(ledger, b, roomy, other.chainFacts))).toEqual(answers(planLeaf(ledger, b, roomy)));
    const root = planLeaf(ledger, chainToRoot(ix, b)[1], roomy);
    expect(answers(planLeaf(ledger, b, roomy, root.chainFacts))).toEqual(answers(planLeaf(ledger, b, roomy)));
  });
});
