// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainItemsRequest } from '../../shared/api';
import { SessionWriter } from '../test-support/backend-api';
import { longSession } from '../test-support/written-sessions';
import { renderOnBackend, renderSession, sessionHash, treeRow, waitCursor } from '../test-support/render-backend';
import { stubScrolling } from '../test-support/scroll-stub';
import { setTextView } from '../text/text-view';

const history = () => screen.getByRole('region', { name: 'History' });
const projected = () => screen.getByRole('region', { name: 'Projected context' });
const historyIds = () => [...history().querySelectorAll('.history-item')].map((n) => n.getAttribute('data-entry-id'));

// branching.jsonl: e0001 header → e0002…e0005; e0006 → e0009 (first branch); e0010 → e0013 (active leaf).
describe('leaf panes', () => {
  it('shows the active leaf: chain on the left, projected context on the right', async () => {
    await renderSession();
    await waitFor(() => expect(within(history()).getByText('9 entries root → leaf', { exact: false })).toBeTruthy());
    // The chain to e0013 skips the first branch (e0006 … e0009).
    await waitFor(() =>
      expect(historyIds()).toEqual(['e0001', 'e0002', 'e0003', 'e0004', 'e0005', 'e0010', 'e0011', 'e0012', 'e0013']),
    );
    expect(within(projected()).getByText('system prompt', { exact: false })).toBeTruthy();
    // The messages beyond the pane's edge are drawn after the first screen's paint.
    await waitFor(() => expect(within(projected()).getAllByText('full')).toHaveLength(8));
    expect(within(projected()).getByText('tail')).toBeTruthy();
    expect(within(projected()).getByText('within budget')).toBeTruthy();
  });

  it('follows a clicked row to the other branch', async () => {
    await renderSession();
    fireEvent.click(treeRow('e0009'));
    // The panes draw a new view in slices: more than waitFor's default second on a loaded machine.
    await waitFor(() => expect(projected().textContent).toContain('Done: the cache now evicts'));
    await waitFor(() =>
      expect(historyIds()).toEqual(['e0001', 'e0002', 'e0003', 'e0004', 'e0005', 'e0006', 'e0007', 'e0008', 'e0009']),
    );
    // The tool_use shows its name and its input as JSON (beyond the edge: drawn after the first screen).
    await waitFor(() => expect(projected().textContent).toContain('⚙ search'));
  });

  it('draws both panes of a new leaf in one commit: never one pane on the new leaf and the other on the old', async () => {
    await renderSession();
    const panes = () => document.querySelector<HTMLElement>('.leaf-panes[data-leaf-id]');
    await waitFor(() => expect(panes()?.getAttribute('aria-busy')).toBe('false'));
    // At every change of the DOM (a commit is one task: its changes come as one batch) both
    // panes show the same leaf, the one the panes name; and once not busy, that is the selection.
    const seen: string[] = [];
    const check = () => {
      const p = panes();
      if (!p) return;
      const leaf = p.getAttribute('data-leaf-id') ?? '';
      const projectedLeaf = projected().querySelector('.pane-leaf')?.textContent ?? '';
      seen.push(`${leaf}|${projectedLeaf === `leaf ${leaf}`}|${historyIds().at(-1) === leaf}`);
    };
    const watch = new MutationObserver(check);
    watch.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    try {
      fireEvent.click(treeRow('e0009'));
      await waitFor(() => expect(panes()?.getAttribute('data-leaf-id')).toBe('e0009'));
      await waitFor(() => expect(panes()?.getAttribute('aria-busy')).toBe('false'));
      check();
    } finally {
      watch.disconnect();
    }
    expect(seen.some((s) => s.startsWith('e0009|'))).toBe(true);
    expect(seen.filter((s) => !s.endsWith('|true|true'))).toEqual([]);
  });

  it("asks what follows a view (the tree's turn markers, the chart's chain check) once both panes drew it", async () => {
    const api = await renderSession();
    const panes = () => document.querySelector<HTMLElement>('.leaf-panes[data-leaf-id]');
    await waitFor(() => expect(panes()?.getAttribute('aria-busy')).toBe('false'));
    // Each request with the leaf the panes showed when it was sent: an answer that lands while the
    // panes render the new view draws the tree or the chart again in the middle of that render.
    const sent: { method: string; req: unknown; shown: string | null }[] = [];
    const push = api.calls.push.bind(api.calls);
    api.calls.push = (...cs) => {
      for (const c of cs)
        sent.push({ method: c.method, req: c.req, shown: panes()?.getAttribute('data-leaf-id') ?? null });
      return push(...cs);
    };
    fireEvent.click(treeRow('e0009'));
    await waitFor(() => expect(panes()?.getAttribute('data-leaf-id')).toBe('e0009'));
    await waitFor(() => expect(panes()?.getAttribute('aria-busy')).toBe('false'));
    const follows = sent.filter(
      (c) =>
        (c.method === 'getPlanTurns' && 'ids' in (c.req as object)) ||
        (c.method === 'getChainItems' && (c.req as ChainItemsRequest).count === 1),
    );
    await waitFor(() => expect(follows.map((c) => c.method)).toContain('getPlanTurns'));
    expect(sent.findIndex((c) => c.method === 'getLeafView')).toBeGreaterThanOrEqual(0);
    expect(follows.filter((c) => c.shown !== 'e0009')).toEqual([]);
  });

  it('shows the text verbatim end to end; markdown is a remembered view that leaves raw HTML as text', async () => {
    const text =
      'Some **bold**. <img src=x onerror="globalThis.__pwned=1"> <script>globalThis.__pwned=2</script> [run](javascript:globalThis.__pwned=3)';
    const result = '\u001b[31msrc/cache.rs:14\u001b[0m // TODO';
    const w = new SessionWriter()
      .header()
      .message('u1', 'h', 'user', [{ type: 'text', text: 'Show me.' }])
      .message('a1', 'u1', 'assistant', [{ type: 'text', text }])
      .message('t1', 'a1', 'tool', [{ type: 'tool_result', tool_use_id: 'x', content: result }]);
    const inert = () => {
      for (const tag of ['img', 'script', 'a']) expect(projected().querySelector(tag)).toBeNull();
      const attrs = [...projected().querySelectorAll('*')].flatMap((el) => el.getAttributeNames());
      expect(attrs.filter((a) => a.startsWith('on') || a === 'href' || a === 'src')).toEqual([]);
      expect((globalThis as { __pwned?: number }).__pwned).toBeUndefined();
    };
    try {
      await renderOnBackend({ written: { hostile: w }, hash: sessionHash('hostile') });
      const texts = () => [...projected().querySelectorAll('.msg-body pre.verbatim')].map((p) => p.textContent);
      // Verbatim by default: each block's text as the model got it, escape codes included.
      await waitFor(() => expect(texts().slice(0, 3)).toEqual(['Show me.', text, result]));
      expect(projected().querySelector('strong')).toBeNull();
      inert();
      // Markdown is switched on in the pane's head, and remembered.
      const toggle = within(projected()).getByRole('button', { name: 'markdown' });
      expect(toggle.getAttribute('aria-pressed')).toBe('false');
      fireEvent.click(toggle);
      await waitFor(() => expect(projected().querySelector('strong')?.textContent).toBe('bold'));
      expect(localStorage.getItem('vak-explorer.text-view.projected.v1')).toBe('rendered');
      inert();
      expect(projected().textContent).toContain('<script>globalThis.__pwned=2</script>');
      expect(projected().querySelector('.md-link')?.textContent).toBe('run');
      expect(projected().querySelector('.md-link')?.getAttribute('title') ?? '').not.toContain('javascript');
      // The tool result's ANSI colour is a span there; no escape byte is left.
      expect(projected().querySelector('.ansi .ansi-fg-31')?.textContent).toBe('src/cache.rs:14');
      expect(projected().querySelector('.ansi')?.textContent).not.toContain('\u001b');
      // The History pane has its own choice, verbatim until switched.
      expect(within(history()).getByRole('button', { name: 'markdown' }).getAttribute('aria-pressed')).toBe('false');
    } finally {
      act(() => setTextView('projected', 'verbatim'));
    }
  });

  it('filters the history by kind and expands an entry to its view, the raw JSON one click away', async () => {
    const api = await renderSession('linear');
    await waitFor(() => expect(history().querySelectorAll('.history-item').length).toBe(21));
    fireEvent.click(within(history()).getByRole('button', { name: 'turn_card 2' }));
    await waitFor(() => expect(history().querySelector('[data-entry-id="e0009"]')).toBeNull());
    // The filtered rows come from the server: wait for them (the old rows are gone at once).
    await waitFor(() => expect(history().querySelectorAll('.history-item')).toHaveLength(19));
    fireEvent.click(within(history()).getByRole('button', { name: 'turn_card 2' }));
    await waitFor(() => expect(history().querySelectorAll('.history-item').length).toBe(21));
    const item = history().querySelector<HTMLElement>('[data-entry-id="e0006"]')!;
    fireEvent.click(within(item).getByTitle('Show the entry'));
    await waitFor(() => expect(item.textContent).toContain('line 6 · offset'));
    fireEvent.click(within(item).getByRole('button', { name: 'raw JSON' }));
    expect(item.querySelector('pre.json')?.textContent).toContain('"name": "run_command"');
    expect(api.calls.some((c) => c.method === 'getEntry')).toBe(true);
  });

  it('a double-click in the history travels to that entry', async () => {
    await renderSession();
    await waitFor(() => expect(history().querySelectorAll('.history-item').length).toBe(9));
    fireEvent.doubleClick(history().querySelector('[data-entry-id="e0005"] .history-line')!);
    await waitFor(() => expect(history().querySelectorAll('.history-item').length).toBe(5));
    await waitCursor('e0005');
  });

  it('shows why an entry is not model-visible', async () => {
    await renderSession('linear');
    await waitFor(() =>
      expect(history().querySelector('[data-entry-id="e0001"] .hidden-reason')?.textContent).toBe('header'),
    );
    expect(history().querySelector('[data-entry-id="e0012"] .hidden-reason')?.textContent).toBe('audit');
    expect(history().querySelector('[data-entry-id="e0003"] .hidden-reason')).toBeNull();
  });
});

describe('a long chain in the History pane', () => {
  let unstub: () => void;
  beforeAll(() => void (unstub = stubScrolling()));
  afterAll(() => unstub());
  const pageCalls = (calls: { method: string; req: unknown }[]) =>
    calls.filter((c) => c.method === 'getChainItems').map((c) => c.req as ChainItemsRequest);

  it('starts at the leaf end, fetches pages as it scrolls, and filters kinds through the server', async () => {
    // 1 header + 400 × (user, assistant, receipt) = 1,201 entries; the view brings the last ones.
    const api = await renderOnBackend({ written: { long: longSession(400) }, hash: sessionHash('long') });
    await waitFor(() => expect(within(history()).getByText('1,201 entries root → leaf')).toBeTruthy());
    await waitFor(() => expect(historyIds()).toContain('r399'));
    expect(historyIds()).not.toContain('h');
    expect(pageCalls(api.calls)).toEqual([]);
    expect(within(history()).getByRole('button', { name: 'message 800' })).toBeTruthy();

    const scroller = history().querySelector<HTMLElement>('.pane-scroll')!;
    act(() => {
      scroller.scrollTop = 0;
      scroller.dispatchEvent(new Event('scroll'));
    });
    expect(history().querySelectorAll('.history-placeholder').length).toBeGreaterThan(0);
    await waitFor(() => expect(historyIds()).toContain('h'));
    // Pages are laid on the view's window (it ends at the leaf): the top ones start at rows 0 and 1.
    const tops = pageCalls(api.calls).map((r) => [r.start, r.leaf]);
    expect(tops).toContainEqual([0, 'r399']);
    expect(history().querySelector('.history-placeholder')).toBeNull();

    // Hiding receipts pages the remaining 801 entries; the list starts at the leaf end again.
    fireEvent.click(within(history()).getByRole('button', { name: 'receipt 400' }));
    await waitFor(() => expect(historyIds()).toContain('a399'));
    expect(historyIds().some((id) => id?.startsWith('r'))).toBe(false);
    const filtered = pageCalls(api.calls).at(-1)!;
    expect(filtered.kinds?.sort()).toEqual(['header', 'message']);
    expect(filtered.start).toBeGreaterThan(600);
  });
});
