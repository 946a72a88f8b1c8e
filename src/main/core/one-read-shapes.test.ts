/**
 * A one-pass reader of a plan's messages (LeafPlan.messages' `oneRead`: the CLI, the exports)
 * gets the messages a page of the pane gets, though its entries are skimmed (a tool result's long
 * content only measured) and never kept: placeholders never reach a message, and an entry whose
 * long strings stand elsewhere than in a tool result's content is parsed whole.
 */
import { describe, expect, it } from 'vitest';
import { generateSession } from '../../generator';
import { ledgerBytes, userMsg } from '../../reliability/ledger-lines';
import { RECORD_INTS } from './json-skim-lexer';
import { planLeaf } from './leaf-plan';
import { Ledger } from './ledger';

/** Long enough to be skimmed (json-skim.ts: strings ≥ 256 raw bytes in lines ≥ 2048). */
const long = (tag: string): string =>
  `${tag} ` + 'line é 読 "quoted" \\ tab\t\u0001 \ud83d\ude00 end\n'.repeat(80) + (tag.length % 2 ? '' : 'no newline');

const result = (id: string, extra: Record<string, unknown> = {}) => ({
  type: 'tool_result',
  tool_use_id: id,
  content: long(id),
  ...extra,
});

const bytes = ledgerBytes([
  { id: 'h', parent_id: null, kind: 'header', system_prompt: 's', tools: [] },
  { id: 'd1', parent_id: 'h', kind: 'message', message: userMsg(long('directive')) },
  {
    id: 'a1',
    parent_id: 'd1',
    kind: 'message',
    message: {
      role: 'assistant',
      content: [
        { type: 'text', text: long('said') },
        { type: 'note', content: long('an assistant block with content') },
        { type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a' } },
        { type: 'tool_use', id: 't2', name: 'grep', input: { q: 'b' } },
      ],
    },
  },
  // Skimmed: every long string is a result's content (one digest computed, one recorded).
  {
    id: 'r1',
    parent_id: 'a1',
    kind: 'message',
    message: { role: 'tool', content: [result('t1'), result('t2', { digest: 'kept digest', is_error: true })] },
  },
  // A long text block beside a result: parsed whole (its text is shown as it is).
  {
    id: 'r2',
    parent_id: 'r1',
    kind: 'message',
    message: { role: 'tool', content: [result('t1'), { type: 'text', content: long('shown as it is') }] },
  },
  // A result whose content is blocks: nothing at message.content[*].content is a string.
  {
    id: 'r3',
    parent_id: 'r2',
    kind: 'message',
    message: {
      role: 'tool',
      content: [{ type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: long('inner') }] }],
    },
  },
  // A user message with a content-keyed block: parsed whole.
  {
    id: 'u1',
    parent_id: 'r3',
    kind: 'message',
    message: { role: 'user', content: [{ type: 'document', content: long('user document') }] },
    meta: { control: 'continue' },
  },
  {
    id: 'u2',
    parent_id: 'u1',
    kind: 'message',
    message: { role: 'user', content: [{ type: 'document', content: long('user document two') }] },
  },
  { id: 'd2', parent_id: 'u2', kind: 'message', message: userMsg('next') },
]);

/** Every message of `leaf`'s plan, read once (skimmed) from a fresh ledger, and a page at a time from another. */
function bothWays(data: Buffer, leaf?: string, plan: 'none' | 'auto' = 'none', notes = false) {
  // With the reader's notes, the skim takes the long strings' measures the reading took.
  const a = Ledger.fromBytes(data, notes ? { noteFullCosts: 4 } : {});
  const b = Ledger.fromBytes(data);
  const leafOf = (l: Ledger) => (leaf === undefined ? l.index.activeLeaf : (l.indexOf(leaf) ?? -1));
  const once = planLeaf(a, leafOf(a), { plan });
  const paged = planLeaf(b, leafOf(b), { plan });
  return {
    once: once.messages(0, once.messageCount, undefined, true),
    paged: paged.messages(0, paged.messageCount),
    a,
  };
}

describe('messages read once, skimmed', () => {
  it.each([false, true])(
    'are the messages a page gets, whichever block holds the long strings (notes: %s)',
    (notes) => {
      const { once, paged, a } = bothWays(bytes, undefined, 'none', notes);
      expect(a.fullNotes?.measuresOf(a.indexOf('r1') ?? -1)?.length ?? 0).toBe(notes ? 2 * RECORD_INTS : 0);
      expect(once).toEqual(paged);
      expect(JSON.stringify(once)).not.toContain('\\u0000');
      // The skimmed path was taken: r1's long strings were placeholders.
      expect(a.skimmedEntry(a.indexOf('r1') ?? -1).long?.count).toBe(2);
      // Only strings at .content are skimmed: a1's text stays in its line, its note's content does not.
      expect(a.skimmedEntry(a.indexOf('a1') ?? -1).long?.count).toBe(1);
      const r1 = once.find((m) => m.source_ids[0] === 'r1');
      expect(r1?.content[0]).toEqual({
        type: 'tool_result',
        tool_use_id: 't1',
        content: expect.stringMatching(/^\[read_file result: 81 lines, \d+ bytes\]$/),
      });
      expect(r1?.content[1]).toEqual({
        type: 'tool_result',
        tool_use_id: 't2',
        content: 'kept digest',
        is_error: true,
      });
    },
  );

  it('are the messages a page gets on generated sessions, at several leaves, with and without a plan', () => {
    for (const seed of [41, 42]) {
      const g = generateSession({ seed, bytes: 300_000, cwd: '/w', shape: seed === 41 ? 'uncompacted' : undefined });
      const l = Ledger.fromBytes(g.bytes);
      for (const leaf of l.index.leaves().slice(0, 6)) {
        const id = l.index.ids[leaf];
        for (const plan of ['none', 'auto'] as const) {
          for (const notes of [false, true]) {
            const { once, paged } = bothWays(g.bytes, id, plan, notes);
            expect(once).toEqual(paged);
          }
        }
      }
    }
  });
});
