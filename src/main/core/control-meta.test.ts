import { describe, expect, it } from 'vitest';
import { ledgerBytes, userMsg } from '../../reliability/ledger-lines';
import { chainToRoot } from './chain';
import { entryPreview } from './entry-preview';
import { Ledger } from './ledger';
import { deriveMessages } from './projection';
import { chainVisibility } from './visibility';

/**
 * LEDGER.md §8: `meta.control` makes a control nudge only on a `user` message; on an
 * assistant or tool message it is recorded and changes nothing in the projection.
 */
const bytes = ledgerBytes([
  { id: 'h', parent_id: null, kind: 'header', system_prompt: 's', tools: [] },
  { id: 'd1', parent_id: 'h', kind: 'message', message: userMsg('do it') },
  {
    id: 'a1',
    parent_id: 'd1',
    kind: 'message',
    message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { cmd: 'ls' } }] },
    meta: { control: 'redo' },
  },
  {
    id: 'r1',
    parent_id: 'a1',
    kind: 'message',
    message: { role: 'tool', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a\nb' }] },
    meta: { control: 'continue' },
  },
  { id: 'n1', parent_id: 'r1', kind: 'message', message: userMsg('again'), meta: { control: 'continue' } },
  {
    id: 'a2',
    parent_id: 'n1',
    kind: 'message',
    message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
  },
  { id: 'd2', parent_id: 'a2', kind: 'message', message: userMsg('next') },
]);

describe('meta.control outside user messages', () => {
  it('keeps an assistant or tool message with meta.control in a closed turn at Full', () => {
    const l = Ledger.fromBytes(bytes);
    const p = deriveMessages(l, l.index.activeLeaf);
    const full = p.messages.filter((m) => m.fidelity === 'full');
    expect(full.map((m) => m.source_ids[0])).toEqual(['d1', 'a1', 'r1', 'a2']);
    expect(full[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: '[bash result: 2 lines, 3 bytes]' },
    ]);
    // The user nudge is still no directive: d1's turn runs to d2.
    expect(p.plan.map((r) => r.turn_id)).toEqual(['d1']);
  });

  it("gives 'control' as the hidden reason only to the user nudge", () => {
    const l = Ledger.fromBytes(bytes);
    const leaf = l.index.activeLeaf;
    const chain = chainToRoot(l.index, leaf);
    const v = chainVisibility(l, chain, deriveMessages(l, leaf));
    const byId = new Map(Array.from(chain, (i, k) => [l.index.ids[i], v[k]]));
    expect(byId.get('n1')?.hidden).toBe('control');
    expect(byId.get('a1')?.hidden).toBeNull();
    expect(byId.get('r1')?.hidden).toBeNull();
  });
});

describe('entry preview of meta.control', () => {
  it('flags only the user nudge as control', () => {
    const l = Ledger.fromBytes(bytes);
    const flag = (id: string) => entryPreview(l.entry(l.indexOf(id) ?? -1)).control;
    expect([flag('a1'), flag('r1'), flag('n1')]).toEqual([false, false, true]);
  });
});
