import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainToRoot } from './chain';
import { Ledger } from './ledger';
import { project } from './projection';
import { chainVisibility } from './visibility';

const FIXTURES = join(__dirname, '../../../../shared/fixtures');

/** Visibility of the chain of `leaf` (null: active leaf), by entry id. */
function visibility(
  file: string,
  leaf: string | null,
  window = 200000,
  reserve = 16000,
  plan: 'auto' | 'none' = 'auto',
) {
  const l = Ledger.openSync(join(FIXTURES, file));
  return fromLedger(l, leaf, window, reserve, plan);
}

function fromLedger(l: Ledger, leaf: string | null, window = 200000, reserve = 16000, plan: 'auto' | 'none' = 'auto') {
  const i = leaf === null ? l.index.activeLeaf : l.indexOf(leaf)!;
  const p = project(l, i, { plan, profile: { window, reserve, bytes_per_token: 4 } });
  const chain = chainToRoot(l.index, i);
  const v = chainVisibility(l, chain, p);
  return new Map(Array.from(chain, (c, k) => [l.index.ids[c], v[k]]));
}

/** A ledger from entries (common fields filled in, hash chain computed). */
function ledgerOf(entries: Record<string, unknown>[]): Ledger {
  let prev: string | null = null;
  const lines = entries.map((e, k) => {
    const line = JSON.stringify({ ts: `2026-01-01T00:00:${String(k).padStart(2, '0')}.000Z`, prev_hash: prev, ...e });
    prev = createHash('sha256').update(line).digest('hex');
    return line + '\n';
  });
  return Ledger.fromBytes(Buffer.from(lines.join('')));
}

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });

describe('chainVisibility', () => {
  it('names control nudges and thinking-only messages of closed turns', () => {
    const v = visibility('control.jsonl', null);
    expect(v.get('e0001')!.hidden).toBe('header');
    expect(v.get('e0005')!.hidden).toBe('control');
    expect(v.get('e0009')!.hidden).toBe('control');
    expect(v.get('e0014')!.hidden).toBe('thinking');
    expect(v.get('e0015')!.hidden).toBe('control');
    expect(v.get('e0002')).toEqual({ projectedAs: [0], hidden: null, turnId: 'e0002' });
    // The open turn is verbatim, nudges included; the leaf is also the tail.
    expect(v.get('e0019')!.projectedAs).toEqual([13, 14]);
    expect(v.get('e0019')!.hidden).toBeNull();
    expect(v.get('e0017')!.turnId).toBe('e0016');
  });

  it('hides what stands before the newest reset, but not the intent that reaches the tail', () => {
    const v = visibility('reset.jsonl', null);
    for (const id of ['e0002', 'e0005', 'e0008', 'e0009', 'e0014']) expect(v.get(id)!.hidden).toBe('before reset');
    expect(v.get('e0007')!.hidden).toBeNull();
    expect(v.get('e0007')!.projectedAs).toEqual([8]);
    expect(v.get('e0015')!.projectedAs).toEqual([0]);
    expect(v.get('e0020')!.hidden).toBe('audit'); // a card the plan did not use
    expect(v.get('e0002')!.turnId).toBeNull(); // turns are indexed after the reset
    expect(v.get('e0017')!.turnId).toBe('e0016');
  });

  it('marks the messages of a turn shown as its card', () => {
    const v = visibility('reset.jsonl', null, 477, 0);
    for (const id of ['e0016', 'e0017', 'e0018', 'e0019']) expect(v.get(id)!.hidden).toBe('as card');
    expect(v.get('e0020')!.projectedAs).toEqual([1]);
  });

  it('marks the messages behind a packet, and unused packets and audit entries as audit', () => {
    const v = visibility('packets.jsonl', null, 2140, 1000);
    for (const id of ['e0002', 'e0005', 'e0007', 'e0012', 'e0015']) expect(v.get(id)!.hidden).toBe('behind packet');
    expect(v.get('e0006')!.hidden).toBe('audit');
    expect(v.get('e0021')!.hidden).toBe('audit');
    expect(v.get('e0027')!.projectedAs).toEqual([0]);
    expect(v.get('e0016')!.hidden).toBeNull();
  });

  it('treats audit kinds as audit and keeps thinking-trimmed messages visible', () => {
    const v = visibility('linear.jsonl', null);
    expect(v.get('e0002')!.hidden).toBe('audit');
    expect(v.get('e0012')!.hidden).toBe('audit');
    expect(v.get('e0004')!.hidden).toBeNull(); // thinking dropped, text and tool use kept
    expect(v.get('e0018')!.projectedAs.length).toBe(1); // the newest intent, in the tail
  });

  it('names superseded intents, unknown kinds and empty messages', () => {
    const l = ledgerOf([
      { id: 'h', parent_id: null, kind: 'header', system_prompt: 's', tools: [] },
      { id: 'd1', parent_id: 'h', kind: 'message', message: user('first') },
      { id: 'i1', parent_id: 'd1', kind: 'intent', intent: { reading: 'a', model_visible: 'old' } },
      { id: 'x', parent_id: 'i1', kind: 'mystery', payload: 1 },
      { id: 'e', parent_id: 'x', kind: 'message', message: { role: 'assistant', content: [] } },
      {
        id: 'a1',
        parent_id: 'e',
        kind: 'message',
        message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      },
      { id: 'i2', parent_id: 'a1', kind: 'intent', intent: { reading: 'b', model_visible: 'new' } },
      { id: 'd2', parent_id: 'i2', kind: 'message', message: user('second') },
    ]);
    const v = fromLedger(l, null);
    expect(v.get('i1')!.hidden).toBe('superseded intent');
    expect(v.get('i2')!.hidden).toBeNull();
    expect(v.get('x')!.hidden).toBe('unknown kind');
    expect(v.get('e')!.hidden).toBe('empty');
    expect(v.get('a1')!.hidden).toBeNull();
  });
});
