// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SessionWriter } from '../test-support/backend-api';
import { press, renderOnBackend, sessionHash, treeRow, waitCursor } from '../test-support/render-backend';

/** A short session an "agent" keeps writing to (the test appends with the same writer: the hash chain holds). */
const liveSession = (): SessionWriter =>
  new SessionWriter()
    .header()
    .message('u1', 'h', 'user', [{ type: 'text', text: 'Fix the cache.' }])
    .message('a1', 'u1', 'assistant', [{ type: 'text', text: 'Looking.' }])
    .message('a2', 'a1', 'assistant', [{ type: 'text', text: 'Fixed.' }]);

const answer = (w: SessionWriter, id: string, parent: string) =>
  w.message(id, parent, 'assistant', [{ type: 'text', text: `appended ${id}` }]);

describe('live session', () => {
  it('subscribes to the library and the open session', async () => {
    const api = await renderOnBackend({ fixtures: ['branching'], hash: sessionHash('branching') });
    await waitFor(() =>
      expect(api.calls.filter((c) => c.method === 'subscribe').map((c) => c.req)).toEqual(
        expect.arrayContaining([{ topic: 'library' }, { topic: 'session', key: api.keyOf('branching') }]),
      ),
    );
  });

  it('streams an appended entry in; with follow on, the newest leaf becomes selected', async () => {
    const w = liveSession();
    const api = await renderOnBackend({ written: { live: w }, hash: sessionHash('live') });
    await waitFor(() => expect(treeRow('a2')).toBeTruthy());
    fireEvent.click(treeRow('a1'));
    await waitCursor('a1');
    api.appendLines(api.keyOf('live'), answer(w, 'x1', 'a2').take());
    await screen.findByText('appended x1', { selector: '.tree-row .row-text' });
    // Follow off: the selection stays.
    expect(document.querySelector('.tree-row.cursor')?.getAttribute('data-entry-id')).toBe('a1');
    press('f');
    expect(screen.getByRole('button', { name: /follow/ }).getAttribute('aria-pressed')).toBe('true');
    await waitCursor('x1');
    api.appendLines(api.keyOf('live'), answer(w, 'x2', 'x1').take());
    await waitCursor('x2');
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Projected context' }).textContent).toContain('appended x2'),
    );
    expect(treeRow('x2').textContent).toContain('◀ active');
  });

  it('gets reading progress for a big session (past 4 MB) and shows no bar once it is read', async () => {
    // Past 4 MB the backend reports progress: four 1.5 MB tool results.
    const w = new SessionWriter().header().message('u1', 'h', 'user', [{ type: 'text', text: 'Read the logs.' }]);
    let parent = 'u1';
    for (let i = 0; i < 4; i++) {
      w.message(`t${i}`, parent, 'tool', [
        { type: 'tool_result', tool_use_id: `x${i}`, content: 'log line\n'.repeat(170_000) },
      ]);
      parent = `t${i}`;
    }
    const api = await renderOnBackend({ written: { big: w }, hash: sessionHash('big') });
    await waitFor(() => expect(treeRow('t3')).toBeTruthy());
    const progress = api.events.filter((e) => e.type === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    for (const e of progress) expect(e).toMatchObject({ key: api.keyOf('big'), bytesTotal: expect.any(Number) });
    expect(progress.every((e) => e.type === 'progress' && e.bytesTotal > 4 << 20)).toBe(true);
    expect(screen.queryByLabelText('Reading the session')).toBeNull();
  });

  it('shows a big session’s first rows while it is read in steps, then the whole session at its active leaf', async () => {
    // 60 messages of ~1 KB, read in steps of 8 KB (first rows while a first open reads).
    const w = new SessionWriter().header().message('m0', 'h', 'user', [{ type: 'text', text: 'Start.' }]);
    for (let i = 1; i < 60; i++) {
      const role = i % 2 ? 'assistant' : 'user';
      w.message(`m${i}`, `m${i - 1}`, role, [{ type: 'text', text: `step ${i} ` + 'x'.repeat(1000) }]);
    }
    // The active leaf's panes need the whole file (asking for them reads the rest at once): held
    // back until the steps are seen, so that the steps are what the tree follows meanwhile.
    let release = (): void => undefined;
    const held = new Promise<void>((r) => (release = r));
    const headTexts: string[] = [];
    const seen = new MutationObserver(() => {
      const t = document.querySelector('[aria-label="Session tree"] .pane-head')?.textContent;
      if (t && headTexts.at(-1) !== t) headTexts.push(t);
    });
    seen.observe(document.body, { subtree: true, childList: true, characterData: true });
    const api = await renderOnBackend({
      written: { big: w },
      hash: sessionHash('big'),
      firstReadBytes: 8192,
      before: (a) => {
        const getLeafView = a.getLeafView.bind(a);
        a.getLeafView = async (...args) => {
          await held;
          return getLeafView(...args);
        };
      },
    });
    const steps = () => api.events.filter((e) => e.type === 'session' && e.reading !== undefined);
    await waitFor(() => expect(steps().at(-1)).toMatchObject({ reading: null, activeLeaf: 'm59' }));
    release();
    await waitCursor('m59', 15_000);
    seen.disconnect();
    // Every step came as an event with its progress; the tree showed part of the session first.
    expect(steps().length).toBeGreaterThan(3);
    expect(
      steps()
        .slice(0, -1)
        .every((e) => e.type === 'session' && e.reading && e.reading.bytesRead < e.reading.bytesTotal),
    ).toBe(true);
    // Meanwhile the header counted the entries read so far.
    const reading = headTexts.filter((t) => /reading \d+ % of/.test(t));
    expect(reading.some((t) => /^\d+ entries so far/.test(t) && !t.startsWith('61 '))).toBe(true);
    const header = screen.getByRole('region', { name: 'Session tree' }).querySelector('.pane-head');
    await waitFor(() => expect(header?.textContent).toContain('61 entries'));
    expect(screen.queryByLabelText('Reading the session')).toBeNull();
    // The panes are the real active leaf's: its chain is whole.
    await waitFor(() => expect(screen.getByRole('region', { name: 'History' }).textContent).toContain('step 59'));
  });

  it('applies library events: a removed session leaves the list', async () => {
    const api = await renderOnBackend({ fixtures: ['branching', 'linear'] });
    const nav = screen.getByRole('navigation', { name: 'Library' });
    await waitFor(() => expect(nav.textContent).toContain('parses_empty_input'));
    api.removeSession(api.keyOf('linear'));
    await waitFor(() => expect(nav.textContent).not.toContain('parses_empty_input'));
    expect(nav.textContent).toContain('List the TODO comments');
  });
});

describe('appends are deltas', () => {
  it('an append is patched in from its event: no openSession, the selection kept, follow moves to the new leaf', async () => {
    const w = liveSession();
    const api = await renderOnBackend({ written: { live: w }, hash: sessionHash('live') });
    await waitFor(() => expect(treeRow('a2')).toBeTruthy());
    fireEvent.click(treeRow('a1'));
    await waitCursor('a1');
    await waitFor(() => expect(screen.getByRole('region', { name: 'History' }).textContent).toContain('Looking.'));
    const opens = () => api.calls.filter((c) => c.method === 'openSession').length;
    const before = { opens: opens(), calls: api.calls.length };
    api.appendLines(api.keyOf('live'), answer(w, 'x1', 'a2').take());
    await screen.findByText('appended x1', { selector: '.tree-row .row-text' });
    const event = api.events.find((e) => e.type === 'session' && e.change === 'appended');
    expect(event?.type === 'session' && event.delta?.rows?.map((r) => r.id)).toEqual(['x1']);
    // Patched, not re-opened; the selected leaf (not the active one) asked for nothing again.
    expect(opens()).toBe(before.opens);
    const after = api.calls.slice(before.calls).map((c) => c.method);
    expect(after).not.toContain('getLeafView');
    expect(after).not.toContain('openSession');
    expect(document.querySelector('.tree-row.cursor')?.getAttribute('data-entry-id')).toBe('a1');
    // The counts come from the delta: the tree's head says 5 entries, 1 leaf.
    expect(document.querySelector('.tree .pane-head')?.textContent).toMatch(/^5 entries .* 1 leaves/);
    // Follow on: the next append selects its new leaf, still without a re-open.
    press('f');
    await waitCursor('x1');
    api.appendLines(api.keyOf('live'), answer(w, 'x2', 'x1').take());
    await waitCursor('x2');
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Projected context' }).textContent).toContain('appended x2'),
    );
    expect(treeRow('x2').textContent).toContain('◀ active');
    expect(opens()).toBe(before.opens);
  });
});
