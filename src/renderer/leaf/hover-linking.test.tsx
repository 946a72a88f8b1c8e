// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ProjectedMessagesRequest } from '../../shared/api';
import { describe, expect, it } from 'vitest';
import { renderOnBackend, renderSession, sessionHash, treeRow } from '../test-support/render-backend';
import { stubScrolling } from '../test-support/scroll-stub';
import { longSession } from '../test-support/written-sessions';

const history = () => screen.getByRole('region', { name: 'History' });
const projected = () => screen.getByRole('region', { name: 'Projected context' });
const message = (i: number) => projected().querySelector<HTMLElement>(`.projected-msg[data-message-index="${i}"]`);

// branching.jsonl, active leaf e0013: messages #0 e0002 (user), #1 e0003 (tool use), … #8 the tail.
describe('hover linking', () => {
  it('a projected message lights its source entries in the history and the tree', async () => {
    await renderSession();
    await waitFor(() => expect(message(1)?.textContent).toContain('e0003'));
    fireEvent.mouseEnter(message(1)!);
    expect(history().querySelector('[data-entry-id="e0003"]')?.classList.contains('linked')).toBe(true);
    expect(treeRow('e0003').classList.contains('linked')).toBe(true);
    expect(treeRow('e0002').classList.contains('linked')).toBe(false);
    // One source entry, one message: one connector between the columns.
    await waitFor(() => expect(document.querySelectorAll('.leaf-columns svg.link-lines path')).toHaveLength(1));
    fireEvent.mouseLeave(message(1)!);
    expect(treeRow('e0003').classList.contains('linked')).toBe(false);
    expect(document.querySelector('.leaf-columns svg.link-lines')).toBeNull();
  });

  it('a click pins the link until Escape', async () => {
    await renderSession();
    await waitFor(() => expect(message(0)).not.toBeNull());
    fireEvent.click(within(projected()).getByRole('button', { name: '#0' }));
    expect(treeRow('e0002').classList.contains('linked')).toBe(true);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    await waitFor(() => expect(treeRow('e0002').classList.contains('linked')).toBe(false));
  });

  it('an entry lights where it went, or says why it did not', async () => {
    // linear.jsonl: e0010 is the second directive; e0012 an activity (audit) inside that turn.
    await renderSession('linear');
    await waitFor(() => expect(history().querySelectorAll('.history-item').length).toBe(21));
    fireEvent.mouseEnter(history().querySelector('[data-entry-id="e0010"]')!);
    const lit = [...projected().querySelectorAll('.projected-msg.linked')];
    expect(lit).toHaveLength(1);
    expect(lit[0].textContent).toContain('Please fix it and run the tests again.');
    fireEvent.mouseEnter(history().querySelector('[data-entry-id="e0012"]')!);
    expect(projected().querySelectorAll('.projected-msg.linked')).toHaveLength(0);
    expect(screen.getByRole('status').textContent).toBe('not model-visible: audit');
    // Hovering a tree row does the same.
    fireEvent.mouseEnter(treeRow('e0016'));
    expect(projected().querySelectorAll('.projected-msg.linked').length).toBeGreaterThan(0);
  });
});

/** The height the scroll stub gives a drawn row: a History row's, as Chromium draws one (its estimate). */
const ROW = 22;

/** Scrolls a pane's list as a user would (the scroll stub lays rows out at ROW px). */
function scrollTo(pane: HTMLElement, top: number): void {
  const el = pane.querySelector<HTMLElement>('.pane-scroll')!;
  act(() => {
    el.scrollTop = top;
    el.dispatchEvent(new Event('scroll'));
  });
}

const pagesAsked = (calls: { method: string; req: unknown }[]) =>
  calls.filter((c) => c.method === 'getProjectedMessages').map((c) => c.req as ProjectedMessagesRequest);

describe('hover linking on a long chain', () => {
  it('a projected message scrolls the history to a source outside the loaded window', async () => {
    const unstub = stubScrolling(ROW);
    try {
      const api = await renderOnBackend({ written: { long: longSession(400) }, hash: sessionHash('long') });
      await waitFor(() => expect(history().querySelector('[data-entry-id="r399"]')).not.toBeNull());
      expect(history().querySelector('[data-entry-id="u0"]')).toBeNull();
      // Both panes open at the leaf end: the projected pane's first message is scrolled to first.
      scrollTo(projected(), 0);
      await waitFor(() => expect(message(0)?.textContent).toContain('ask 0'));
      fireEvent.mouseEnter(message(0)!);
      // u0 sits at chain position 1: the history jumps there, fetches that page and lights it.
      await waitFor(() =>
        expect(history().querySelector('[data-entry-id="u0"]')?.classList.contains('linked')).toBe(true),
      );
      expect(api.calls.some((c) => c.method === 'getChainItems' && (c.req as { start: number }).start <= 1)).toBe(true);
      // Hovering the entry lights the message back; a receipt says why it is not sent.
      fireEvent.mouseLeave(message(0)!);
      fireEvent.mouseEnter(history().querySelector('[data-entry-id="r0"]')!);
      expect(screen.getByRole('status').textContent).toBe('not model-visible: audit');
    } finally {
      unstub();
    }
  });
});

describe('links between the panes on a long chain (both ways, any message)', () => {
  it('both panes open at the leaf end; the projected pane pages; "→ #400" and "← u0" scroll the other pane', async () => {
    const unstub = stubScrolling(ROW);
    try {
      // 1 header + 400 × (user, assistant, receipt): 800 projected messages (#2t ask t, #2t+1 answer t).
      const api = await renderOnBackend({ written: { long: longSession(400) }, hash: sessionHash('long') });
      await waitFor(() => expect(history().querySelector('[data-entry-id="r399"]')).not.toBeNull());
      // Aligned: the newest entry and the newest message are both in view, the first ones are not.
      await waitFor(() => expect(message(799)?.textContent).toContain('answer 399'));
      expect(message(0)).toBeNull();
      // The view brought the first screen only; what else is on screen came as one page at the end.
      const view = api.calls.find((c) => c.method === 'getLeafView')?.req as { pagedMessages?: boolean };
      expect(view.pagedMessages).toBe(true);
      expect(pagesAsked(api.calls).length).toBeLessThanOrEqual(1);
      expect(pagesAsked(api.calls).every((r) => r.start >= 700)).toBe(true);

      // History → projected: the entry u200 went to message #400 (not loaded): its link pages it in and scrolls there.
      scrollTo(history(), 601 * ROW - 200);
      await waitFor(() => expect(history().querySelector('[data-entry-id="u200"]')).not.toBeNull());
      const link = within(history().querySelector<HTMLElement>('[data-entry-id="u200"]')!).getByRole('button', {
        name: /^#400/,
      });
      fireEvent.click(link);
      await waitFor(() => expect(message(400)?.textContent).toContain('ask 200'));
      expect(message(400)?.classList.contains('linked')).toBe(true);
      expect(pagesAsked(api.calls).some((r) => r.start <= 400 && 400 < r.start + r.count)).toBe(true);
      expect(pagesAsked(api.calls).every((r) => r.leaf === 'r399')).toBe(true);

      // Projected → history: message #0's source button scrolls the History to u0 and lights it.
      scrollTo(projected(), 0);
      await waitFor(() => expect(message(0)).not.toBeNull());
      fireEvent.click(within(message(0)!).getByRole('button', { name: 'u0' }));
      await waitFor(() =>
        expect(history().querySelector('[data-entry-id="u0"]')?.classList.contains('linked')).toBe(true),
      );
    } finally {
      unstub();
    }
  });
});
