import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from './entry-types';
import { typedEntry, type ValidLine } from './entry-validate';
import { formatBytes } from '../../shared/format-bytes';
import { entryPreview, oneLine } from './entry-preview';

const base = { id: 'x', parent_id: 'p', ts: '2026-01-01T00:00:00.000Z', prev_hash: null };
/** A typed entry the way Ledger.entry makes one from a parsed line. */
const entry = (fields: Record<string, unknown>): LedgerEntry => typedEntry({ ...base, ...fields } as ValidLine);
const msg = (role: string, content: unknown[], meta?: unknown): LedgerEntry =>
  entry({ kind: 'message', message: { role, content }, ...(meta ? { meta } : {}) });
const audit = (kind: string, payload: Record<string, unknown>): LedgerEntry => entry({ kind, ...payload });

describe('entryPreview', () => {
  it('shows a message by its first text, on one line', () => {
    const p = entryPreview(msg('user', [{ type: 'text', text: 'Fix the\n  flaky   test' }]));
    expect(p).toEqual({ text: 'Fix the flaky test', role: 'user', control: false });
  });

  it('shows tool calls with their arguments and results by size', () => {
    const call = msg('assistant', [
      { type: 'thinking', text: 'hmm' },
      { type: 'tool_use', id: 't', name: 'run', input: { cmd: 'ls' } },
    ]);
    expect(entryPreview(call).text).toBe('(thinking) · run({"cmd":"ls"})');
    const res = msg('tool', [{ type: 'tool_result', tool_use_id: 't', content: 'x'.repeat(2150) }]);
    expect(entryPreview(res)).toMatchObject({ text: 'result (2.1 KB)', role: 'tool' });
    const err = msg('tool', [{ type: 'tool_result', tool_use_id: 't', content: 'boom', is_error: true }]);
    expect(entryPreview(err).text).toBe('error (4 B)');
  });

  it('flags control nudges', () => {
    const p = entryPreview(msg('user', [{ type: 'text', text: 'go on' }], { control: 'continue' }));
    expect(p).toEqual({ text: '[continue] go on', role: 'user', control: true });
  });

  it('summarizes each audit kind in a line', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['header', { model: 'm', cwd: '/w' }, 'm · /w'],
      ['compaction', { reset_all: true, summary: 'all so far' }, 'reset: all so far'],
      ['compaction', { packet: { summary: 'turns 1-3' } }, 'packet: turns 1-3'],
      ['receipt', { receipt: { purpose: 'turn', attempts: [{}, {}] } }, 'turn · 2 attempts'],
      ['goal', { goal: { objective: 'ship it', criteria: [] } }, 'ship it'],
      ['goal_update', { goal_update: { status: 'done', relation: 'advances' } }, 'done · advances'],
      ['activity', { activity: { type: 'retry', detail: 'rate limit' } }, 'retry: rate limit'],
      ['work', { work: { work_id: 'w1', event: 'start', state: 'running' } }, 'w1 · start · running'],
      ['intent', { intent: { reading: 'wants tests' } }, 'wants tests'],
      ['child_run', { child_run: { agent: 'reviewer', outcome: 'ok', summary: 'fine' } }, 'reviewer ok: fine'],
      [
        'turn_capabilities_bound',
        { capabilities: { core_tools: ['a', 'b'], deferred_tools: ['c'] } },
        '2 core tools, 1 deferred',
      ],
      ['presentation', { presentation: { card_type: 'diff', ack: 'seen' } }, 'diff card · ack seen'],
      ['turn_card', { turn_card: { line: 'Fixed the test.' } }, 'Fixed the test.'],
      ['mystery', { a: 1, b: 2 }, 'a, b'],
    ];
    for (const [kind, payload, text] of cases) {
      expect(entryPreview(audit(kind, payload))).toEqual({ text, role: null, control: false });
    }
  });

  it('never throws on malformed payloads', () => {
    expect(entryPreview(audit('message', { message: 'nope' })).role).toBeNull();
    expect(entryPreview(audit('receipt', { receipt: 5 })).text).toBe('· 0 attempts');
    expect(entryPreview(audit('turn_card', {})).text).toBe('');
  });

  it('clips by code points and formats sizes', () => {
    expect(oneLine('😀'.repeat(10), 5)).toBe('😀😀😀😀…');
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(3.5 * 1024 * 1024)).toBe('3.5 MB');
  });
});
