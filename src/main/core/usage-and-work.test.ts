import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
