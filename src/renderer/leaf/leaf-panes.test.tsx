// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainItemsRequest } from '../../shared/api';
import { SESSION_A, longEntries } from '../api/fake-data';
import { renderApp, renderWithSession, treeRow } from '../test-support/render-app';
import { stubScrolling } from '../test-support/scroll-stub';

const history = () => screen.getByRole('region', { name: 'History' });
const projected = () => screen.getByRole('region', { name: 'Projected context' });

describe('leaf panes', () => {
  it('shows the active leaf: chain on the left, projected context on the right', async () => {
    await renderWithSession();
    await waitFor(() => expect(within(history()).getByText('11 entries root → leaf', { exact: false })).toBeTruthy());
    // Chain e01 → e13 skips the abandoned branch (e08, e09).
    const ids = [...history().querySelectorAll('.history-item')].map((n) => n.getAttribute('data-entry-id'));
    expect(ids).toEqual(['e01', 'e02', 'e03', 'e04', 'e05', 'e06', 'e07', 'e10', 'e11', 'e12', 'e13']);
    expect(within(projected()).getByText('system prompt', { exact: false })).toBeTruthy();
    expect(within(projected()).getAllByText('full').length).toBeGreaterThan(0);
    expect(within(projected()).getByText('tail')).toBeTruthy();
    expect(within(projected()).getByText('within budget')).toBeTruthy();
  });

  it('follows a clicked row, renders markdown safely and ANSI as spans', async () => {
    await renderWithSession();
    fireEvent.click(treeRow('e09'));
    await waitFor(() => expect(projected().textContent).toContain('Another way: grep.'));
    const ids = [...history().querySelectorAll('.history-item')].map((n) => n.getAttribute('data-entry-id'));
    expect(ids).toEqual(['e01', 'e02', 'e03', 'e04', 'e05', 'e08', 'e09']);
    // Markdown: bold rendered, the link kept as text (no anchor), address in the title.
    expect(projected().querySelector('strong')?.textContent).toBe('three');
    expect(projected().querySelector('a')).toBeNull();
    expect(projected().querySelector('.md-link')?.getAttribute('title')).toBe('https://example.com');
    // Tool result: red span, no escape bytes left.
    const red = projected().querySelector('.ansi .ansi-fg-31');
    expect(red?.textContent).toBe('src/cache.rs:14');
    expect(projected().querySelector('.ansi')?.textContent).not.toContain('\u001b');
    // Thinking was dropped from the projection; the tool_use shows name + JSON.
    expect(projected().textContent).toContain('⚙ search');
    expect(projected().textContent).toContain('"query": "TODO"');
  });

  it('filters the history by kind and expands an entry to its raw JSON', async () => {
    const api = await renderWithSession();
    await waitFor(() => expect(history().querySelectorAll('.history-item').length).toBe(11));
    fireEvent.click(within(history()).getByRole('button', { name: 'receipt 1' }));
    expect(history().querySelector('[data-entry-id="e06"]')).toBeNull();
    fireEvent.click(within(history()).getByRole('button', { name: 'receipt 1' }));
    const item = history().querySelector<HTMLElement>('[data-entry-id="e03"]')!;
    fireEvent.click(within(item).getByTitle('Show the raw JSON line'));
    await waitFor(() => expect(item.textContent).toContain('line 3 · offset 400'));
    expect(item.querySelector('pre.json')?.textContent).toContain('"name": "search"');
    expect(api.calls.some((c) => c.method === 'getEntry')).toBe(true);
  });

  it('a double-click in the history travels to that entry', async () => {
    await renderWithSession();
    await waitFor(() => expect(history().querySelectorAll('.history-item').length).toBe(11));
    fireEvent.doubleClick(history().querySelector('[data-entry-id="e05"] .history-line')!);
    await waitFor(() => expect(history().querySelectorAll('.history-item').length).toBe(5));
    expect(document.querySelector('.tree-row.cursor')?.getAttribute('data-entry-id')).toBe('e05');
  });

  it('shows why an entry is not model-visible', async () => {
    await renderWithSession();
    await waitFor(() =>
      expect(history().querySelector('[data-entry-id="e06"] .hidden-reason')?.textContent).toBe('audit'),
    );
    expect(history().querySelector('[data-entry-id="e01"] .hidden-reason')?.textContent).toBe('header');
  });
});

describe('a long chain in the History pane', () => {
  let unstub: () => void;
  beforeAll(() => void (unstub = stubScrolling()));
  afterAll(() => unstub());
  const drawn = () => [...history().querySelectorAll('.history-item')].map((n) => n.getAttribute('data-entry-id'));
  const pageCalls = (calls: { method: string; req: unknown }[]) =>
    calls.filter((c) => c.method === 'getChainItems').map((c) => c.req as ChainItemsRequest);

  it('starts at the leaf end, fetches pages as it scrolls, and filters kinds through the server', async () => {
    // 1 header + 400 × (user, assistant, receipt) = 1,201 entries; the view brings the last 200.
    const api = renderApp({ hash: `#s=${encodeURIComponent(SESSION_A)}`, entries: { [SESSION_A]: longEntries(400) } });
    await waitFor(() => expect(within(history()).getByText('1,201 entries root → leaf')).toBeTruthy());
    await waitFor(() => expect(drawn()).toContain('r399'));
    expect(drawn()).not.toContain('e01');
    expect(pageCalls(api.calls)).toEqual([]);
    expect(within(history()).getByRole('button', { name: 'message 800' })).toBeTruthy();

    const scroller = history().querySelector<HTMLElement>('.pane-scroll')!;
    act(() => {
      scroller.scrollTop = 0;
      scroller.dispatchEvent(new Event('scroll'));
    });
    expect(history().querySelectorAll('.history-placeholder').length).toBeGreaterThan(0);
    await waitFor(() => expect(drawn()).toContain('e01'));
    // Pages are laid on the view's window (rows 1001–1200): the top ones are rows 0 and 1–200.
    expect(pageCalls(api.calls).map((r) => [r.start, r.count, r.leaf])).toEqual([
      [0, 1, 'r399'],
      [1, 200, 'r399'],
    ]);
    expect(history().querySelector('.history-placeholder')).toBeNull();

    // Hiding receipts pages the remaining 801 entries; the list starts at the leaf end again.
    fireEvent.click(within(history()).getByRole('button', { name: 'receipt 400' }));
    await waitFor(() => expect(drawn()).toContain('a399'));
    expect(drawn().some((id) => id?.startsWith('r'))).toBe(false);
    const filtered = pageCalls(api.calls).at(-1)!;
    expect(filtered.kinds?.sort()).toEqual(['header', 'message']);
    expect(filtered.start).toBe(800);
  });
});
