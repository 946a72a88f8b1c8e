// @vitest-environment jsdom
import { fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../store/app-store';
import { SessionWriter } from '../test-support/backend-api';
import { renderOnBackend, sessionHash, waitCursor } from '../test-support/render-backend';

type Calls = { method: string; req: unknown }[];

/** Requests that repeat one already sent (same method, same request). */
const repeats = (calls: Calls, methods: string[]): string[] => {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of calls) {
    if (!methods.includes(c.method)) continue;
    const k = `${c.method} ${JSON.stringify(c.req)}`;
    if (seen.has(k)) out.push(k);
    seen.add(k);
  }
  return out;
};

/** 60 messages of ~1 KB: read in steps of 8 KB, as a big session's first open is. */
function steppedSession(): SessionWriter {
  const w = new SessionWriter().header().message('m0', 'h', 'user', [{ type: 'text', text: 'Start.' }]);
  for (let i = 1; i < 60; i++) {
    const role = i % 2 ? 'assistant' : 'user';
    w.message(`m${i}`, `m${i - 1}`, role, [{ type: 'text', text: `step ${i} ` + 'x'.repeat(1000) }]);
  }
  return w;
}

describe('opening a session asks once for what the screen needs', { timeout: 60_000 }, () => {
  it('a first read in steps: one open, one view, no row number asked', async () => {
    const api = await renderOnBackend({
      written: { big: steppedSession() },
      hash: sessionHash('big'),
      firstReadBytes: 8192,
    });
    await waitCursor('m59', 20_000);
    await waitFor(() => expect(document.querySelector('.leaf-panes[data-leaf-id="m59"]')).not.toBeNull());
    const n = (m: string) => api.calls.filter((c) => c.method === m).length;
    // The open, once: the figures at the read's end (whole usage, work, links) came with its event.
    expect(n('openSession')).toBe(1);
    expect(n('getLeafView')).toBe(1);
    // The secret counts, once: what the scan finds meanwhile comes pushed, never polled for.
    expect(n('getSecretCounts')).toBe(1);
    // The cursor waited for the read's end instead of chasing the last entry read at each step,
    // and found the active leaf's row on that event: no findRow at all.
    expect(n('findRow')).toBe(0);
    // (A page of rows may be asked again: a step's delta can redraw rows shown, e.g. the old last one.)
    expect(repeats(api.calls, ['findRow', 'getLeafView', 'getContextSeries'])).toEqual([]);
  });

  it('a click on a session in the library asks for its open in the click’s own task, once', async () => {
    const api = await renderOnBackend({ written: { small: steppedSession() } });
    const sel = `button.session-item[data-session-key="${api.keyOf('small')}"]`;
    await waitFor(() => expect(document.querySelector(sel)).not.toBeNull());
    const from = api.calls.length;
    fireEvent.click(document.querySelector(sel) as HTMLElement);
    // Nothing awaited: the open left with the click, not after the render it causes.
    expect(api.calls.slice(from).map((c) => c.method)).toContain('openSession');
    await waitFor(() => expect(document.querySelector('.leaf-panes[data-leaf-id="m59"]')).not.toBeNull());
    expect(api.calls.filter((c) => c.method === 'openSession')).toHaveLength(1);
    expect(
      api.calls.filter((c) => c.method === 'subscribe' && (c.req as { topic: string }).topic === 'session'),
    ).toHaveLength(1);
  });

  it("a click in the library asks the active leaf's page of rows with the open; the tree takes it", async () => {
    const api = await renderOnBackend({ written: { small: steppedSession() } });
    const sel = `button.session-item[data-session-key="${api.keyOf('small')}"]`;
    await waitFor(() => expect(document.querySelector(sel)).not.toBeNull());
    const from = api.calls.length;
    fireEvent.click(document.querySelector(sel) as HTMLElement);
    await Promise.resolve(); // (the click's task ends with its microtasks)
    const rows = () => api.calls.slice(from).filter((c) => c.method === 'getTreeRows');
    // With the open, before its answer (which asks the leaf view) came.
    expect(rows().map((c) => c.req)).toEqual([
      { key: api.keyOf('small'), start: 0, count: 256, foldAudit: false, holding: 'activeLeaf' },
    ]);
    expect(api.calls.slice(from).map((c) => c.method)).not.toContain('getLeafView');
    await waitFor(() => expect(document.querySelector('.leaf-panes[data-leaf-id="m59"]')).not.toBeNull());
    await waitFor(() => expect(document.querySelector('.tree-row[data-entry-id="m59"]')).not.toBeNull());
    // The tree's page of the active leaf was that one: no other page of rows was asked.
    expect(rows()).toHaveLength(1);
  });

  it('a session opened on a named entry asks no page of the active leaf', async () => {
    const api = await renderOnBackend({ written: { small: steppedSession() } });
    const sel = `button.session-item[data-session-key="${api.keyOf('small')}"]`;
    await waitFor(() => expect(document.querySelector(sel)).not.toBeNull());
    const from = api.calls.length;
    useAppStore.getState().openSessionAt(api.keyOf('small'), 'm10');
    await waitCursor('m10');
    const asked = api.calls.slice(from).filter((c) => c.method === 'getTreeRows');
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((c) => (c.req as { holding?: string }).holding !== undefined)).toEqual([]);
  });

  it('a page opened on a session (a reload) asks for it from its first render: nothing for “no session”', async () => {
    const api = await renderOnBackend({ written: { small: steppedSession() }, hash: sessionHash('small') });
    await waitFor(() => expect(document.querySelector('.leaf-panes[data-leaf-id="m59"]')).not.toBeNull());
    // The secret counts are asked once with the session's findings, not first for an app with none open.
    const findings = api.calls.findIndex((c) => c.method === 'getSecrets');
    expect(findings).toBeGreaterThan(0);
    expect(api.calls.slice(0, findings).filter((c) => c.method === 'getSecretCounts')).toHaveLength(1);
    expect(api.calls.filter((c) => c.method === 'openSession')).toHaveLength(1);
  });
});
