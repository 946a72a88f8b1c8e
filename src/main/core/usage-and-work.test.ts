import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { FIXTURES } from '../../test-support/fixtures';
import { chainToRoot } from './chain';
import { Ledger } from './ledger';
import { usageTotals } from './usage';
import { foldWork } from './work-fold';

const BIG = 'demo-home/agents/vak/sessions/70929a3c84065db2/01a1f7f8-3000-7bce-9f84-9a13f02868af.jsonl';

describe('usage totals (§2)', () => {
  it('sums the active chain only; the all-branches total is at least as large', () => {
    const l = Ledger.fromBytes(readFileSync(join(FIXTURES, 'branching.jsonl')));
    const chain = chainToRoot(l.index, l.index.activeLeaf);
    const active = usageTotals(l, chain);
    const all = usageTotals(l, 'all');
    let expected = 0;
    for (const i of chain) {
      const meta = l.entry(i).fields['meta'] as { usage?: { output_tokens: number } } | undefined;
      expected += meta?.usage?.output_tokens ?? 0;
    }
    expect(active.output_tokens).toBe(expected);
    expect(active.output_tokens).toBeGreaterThan(0);
    expect(all.output_tokens).toBeGreaterThan(active.output_tokens); // the abandoned branch counts only here
  });

  it('sums a chain walked up from its leaf as the listed chain, from every leaf of every fixture', () => {
    for (const f of ['branching.jsonl', 'linear.jsonl', 'damaged.jsonl', 'packets.jsonl']) {
      const l = Ledger.fromBytes(readFileSync(join(FIXTURES, f)));
      for (let i = 0; i < l.index.count; i++) {
        if (l.index.childCount[i] !== 0) continue;
        expect(usageTotals(l, { upFrom: i }), `${f}, leaf ${i}`).toEqual(usageTotals(l, chainToRoot(l.index, i)));
      }
    }
    expect(usageTotals(Ledger.fromBytes(Buffer.alloc(0)), { upFrom: 0 }).messages).toBe(0);
  });
});

describe('work fold (§3)', () => {
  it('folds events per work_id into the current state', () => {
    const l = Ledger.fromBytes(readFileSync(join(FIXTURES, BIG)));
    const items = foldWork(l, chainToRoot(l.index, l.index.activeLeaf));
    expect(items.length).toBeGreaterThan(0);
    for (const it of items) {
      expect(it.events).toBeGreaterThan(0);
      const last = l.entry(l.indexOf(it.last_entry) ?? -1);
      expect(last.kind === 'work' && last.work).toMatchObject({ work_id: it.work_id, event: it.last_event });
    }
  });
});

describe('work fold extended from a tip (an append or a reopen folds what came since)', () => {
  const bytes = readFileSync(join(FIXTURES, BIG));
  const base = Ledger.fromBytes(bytes);
  const chain = chainToRoot(base.index, base.index.activeLeaf);
  const full = foldWork(base, chain);
  const workAfter = (k: number): number => chain.slice(k + 1).filter((i) => base.entry(i).kind === 'work').length;

  it('gives the whole fold and takes only the work entries after the tip, parsing none', () => {
    expect(workAfter(-1)).toBeGreaterThan(3);
    for (const k of [
      0,
      Math.floor(chain.length / 3),
      Math.floor(chain.length / 2),
      chain.length - 2,
      chain.length - 1,
    ]) {
      const from = { tip: chain[k], items: foldWork(base, chain.slice(0, k + 1)) };
      const l = Ledger.fromBytes(bytes); // a cold entry cache: every parse counts
      const before = l.stats.entriesMaterialised;
      const taken = vi.spyOn(l, 'workEvent');
      expect(foldWork(l, chain, from)).toEqual(full);
      expect(taken).toHaveBeenCalledTimes(workAfter(k));
      expect(l.stats.entriesMaterialised - before).toBe(0); // the reader noted them (work-notes.ts)
    }
  });

  it('leaves the fold it starts from as it was', () => {
    const k = Math.floor(chain.length / 2);
    const items = foldWork(base, chain.slice(0, k + 1));
    const copy = structuredClone(items);
    foldWork(base, chain, { tip: chain[k], items });
    expect(items).toEqual(copy);
  });

  it('folds the whole chain when the tip is not on it (another branch) or not an entry', () => {
    const notOnChain = [...Array(base.index.count).keys()].filter((i) => !chain.includes(i));
    expect(notOnChain.length).toBeGreaterThan(0);
    const stale = { tip: notOnChain[notOnChain.length - 1], items: [{ ...full[0], events: 999 }] };
    expect(foldWork(base, chain, stale)).toEqual(full);
    expect(foldWork(base, chain, { tip: base.index.count + 5, items: stale.items })).toEqual(full);
  });
});
