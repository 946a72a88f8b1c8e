// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchRequest } from '../../shared/api-features';
import { ApiError } from '../api/api-methods';
import { useAppStore } from '../store/app-store';
import { injectFault } from '../test-support/api-faults';
import type { BackendApi } from '../test-support/backend-api';
import { cursorId, renderOnBackend } from '../test-support/render-backend';
import { stubScrolling } from '../test-support/scroll-stub';

/** The demo home's sessions this test names. */
const TESTS_RUN = 'agents/vak/sessions/70929a3c84065db2/01a202b8-4340-760b-95da-2b05292cd070.jsonl';
const FACTURE = 'agents/vak/sessions/3f7fe33c03d36fc4/01a212d8-6020-771d-86dd-af00b0056a14.jsonl';
/** The work entry of FACTURE whose payload says "pytest -q" (its only mention in the home). */
const PYTEST_WORK = '01a212e5-888b-7ea9-b19e-60af2a2b174a';

const chord = (key: string, mods: { shift?: boolean } = {}) =>
  act(() => {
    fireEvent.keyDown(document.activeElement ?? document.body, { key, ctrlKey: true, shiftKey: !!mods.shift });
  });

const panel = () => screen.getByRole('navigation', { name: 'Search' });
const field = () => within(panel()).getByRole('searchbox');

async function type(text: string): Promise<void> {
  act(() => {
    fireEvent.change(field(), { target: { value: text } });
  });
}

/** The hits drawn, as `session key · entry id · kind · field · marked text`. */
function hitRows(): string[] {
  const out: string[] = [];
  let session = '';
  for (const el of panel().querySelectorAll<HTMLElement>('.search-session, .search-hit')) {
    if (el.classList.contains('search-session')) session = el.title;
    else {
      const marks = [...el.querySelectorAll('mark')].map((m) => m.textContent).join('|');
      const kind = el.querySelector('.search-kind')?.getAttribute('title');
      const fieldText = el.querySelector('.search-field')?.textContent;
      out.push(`${session} · ${el.dataset.entryId} · ${kind} · ${fieldText} · ${marks}`);
    }
  }
  return out;
}

const status = () => panel().querySelector('.search-status')?.textContent ?? '';

async function searchDone(): Promise<void> {
  await waitFor(() => expect(status()).toMatch(/hits? in|No match/));
}

/** The search requests the panel sent (first pages only). */
const firstPages = (api: BackendApi) =>
  api.calls.filter((c) => c.method === 'search' && !(c.req as SearchRequest).cursor).map((c) => c.req as SearchRequest);

/** jsdom lays nothing out: render-backend gives every element 800 px; this makes it `px` for one test. */
function tallWindow(px: number): void {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => px });
}
/**
 * jsdom's scrollHeight is 0, so a virtualizer clamps every scroll to the top: a scroller's
 * height is its sized content's (the virtual lists' one inner box), as a browser would say.
 */
function stubScrollHeight(): void {
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      const inner = this.firstElementChild;
      return inner instanceof HTMLElement ? Number.parseFloat(inner.style.height) || 0 : 0;
    },
  });
}

let unstub: (() => void) | null = null;
afterEach(() => {
  tallWindow(800);
  unstub?.();
  unstub = null;
  delete (HTMLElement.prototype as { scrollHeight?: number }).scrollHeight;
});

describe('search panel on the real backend (demo home)', () => {
  it('Ctrl+Shift+F searches every session: a tool result and an audit payload, grouped by session, match marked', async () => {
    await renderOnBackend({ demoHome: true });
    await screen.findByText(/Run the full test suite/);
    chord('F', { shift: true });
    expect(document.activeElement).toBe(field());
    expect(screen.queryByRole('navigation', { name: 'Library' })).toBeNull();
    expect(within(panel()).getByText(/Type to search every session/)).toBeTruthy();

    // cargo's output, in a tool result of two sessions.
    await type('Running 23 TESTS');
    await searchDone();
    const rows = hitRows();
    expect(rows.length).toBe(2);
    expect(new Set(rows.map((r) => r.split(' · ')[0])).size).toBe(2);
    expect(rows.find((r) => r.startsWith(TESTS_RUN))).toMatch(/ · message · content · running 23 tests$/);
    // The row names the field short, the full path in its title.
    expect(panel().querySelector('.search-field')?.getAttribute('title')).toMatch(
      /^message\.content\[0\]\.content · line \d+$/,
    );
    // The heading names the session by title, agent and directory (another user's home stays whole).
    const heading = panel().querySelector<HTMLElement>(`.search-session[title="${TESTS_RUN}"]`);
    expect(heading?.textContent).toBe(
      'Run the full test suite and tell me what is broken.vak · /home/ana/projects/vak',
    );
    expect(status()).toBe('2 hits in 2 sessions (7 files searched)');

    // An audit payload: a work entry's detail.
    await type('pytest -q');
    await searchDone();
    expect(hitRows()).toContain(`${FACTURE} · ${PYTEST_WORK} · work · work.detail · pytest -q`);
    expect(hitRows().filter((r) => / · goal · goal\.criteria\[0\] · /.test(r)).length).toBe(1);

    await type('zzq-not-in-the-demo');
    await searchDone();
    expect(status()).toBe('No match in 7 files.');
    expect(hitRows()).toEqual([]);
  });

  it('filters narrow: agent, directory, kind, dates', async () => {
    const api = await renderOnBackend({ demoHome: true });
    // A window tall enough to draw every hit of this test (the list is virtualized).
    tallWindow(5000);
    await screen.findByText(/Run the full test suite/);
    chord('F', { shift: true });
    // "cargo test": in messages and audit entries (goals, work, presentations) of four sessions, two agents.
    await type('cargo test');
    await searchDone();
    const all = hitRows();
    const sessionsOf = (rows: string[]) => [...new Set(rows.map((r) => r.split(' · ')[0]))].sort();
    const kindsOf = (rows: string[]) => [...new Set(rows.map((r) => r.split(' · ')[2]))].sort();
    expect(sessionsOf(all).length).toBe(4);
    expect(kindsOf(all)).toEqual(['goal', 'message', 'presentation', 'work']);

    const pick = async (label: string, value: string) => {
      act(() => {
        fireEvent.change(within(panel()).getByLabelText(label), { target: { value } });
      });
      await waitFor(() => expect(status()).toBe('searching…'));
      await searchDone();
    };
    await pick('Agent', 'reviewer');
    expect(sessionsOf(hitRows())).toEqual([
      'agents/reviewer/sessions/70929a3c84065db2/01a1f82c-5b45-725c-805f-4b4c88f15899.jsonl',
    ]);
    await pick('Agent', 'vak');
    await pick('Working directory', '/home/ana/projects/vak');
    expect(sessionsOf(hitRows()).length).toBe(3);
    expect(sessionsOf(hitRows()).every((k) => k.startsWith('agents/vak/sessions/70929a3c84065db2/'))).toBe(true);
    await pick('Agent', '');

    await pick('Kind', 'message');
    expect(kindsOf(hitRows())).toEqual(['message']);
    await pick('Kind', 'audit');
    expect(kindsOf(hitRows())).toEqual(['goal', 'presentation', 'work']);
    await pick('Kind', '');

    // The sessions of Nov 20 (two), Nov 21 and Nov 22 (one each).
    await pick('From date', '2026-11-21');
    expect(sessionsOf(hitRows())).toEqual([
      'agents/vak/sessions/70929a3c84065db2/01a1fd58-39a0-7d17-ad66-db447f33868e.jsonl',
      TESTS_RUN,
    ]);
    expect(firstPages(api).at(-1)?.filters).toEqual({ from: '2026-11-21T00:00:00.000Z' });
    await pick('To date', '2026-11-21');
    expect(sessionsOf(hitRows())).toEqual([
      'agents/vak/sessions/70929a3c84065db2/01a1fd58-39a0-7d17-ad66-db447f33868e.jsonl',
    ]);
    await pick('From date', '2026-11-23');
    expect(status()).toMatch(/^No match in \d files?\.$/);
  });

  it('↓ and Enter open the hit as the selected leaf, the tree scrolls to it; Esc returns to the library', async () => {
    unstub = stubScrolling();
    stubScrollHeight();
    const api = await renderOnBackend({ demoHome: true });
    await screen.findByText(/Run the full test suite/);
    chord('F', { shift: true });
    await type('allowed by user');
    await searchDone();
    const hits = [...panel().querySelectorAll<HTMLElement>('.search-hit')];
    const target = hits.find((h) => h.dataset.entryId && h.closest('[role=listbox]'))?.dataset.entryId;
    expect(panel().querySelector('.search-hit.active')?.getAttribute('data-entry-id')).toBe(hits[0].dataset.entryId);
    act(() => {
      fireEvent.keyDown(field(), { key: 'ArrowDown' });
    });
    const second = hits[1].dataset.entryId;
    expect(panel().querySelector('.search-hit.active')?.getAttribute('data-entry-id')).toBe(second);
    act(() => {
      fireEvent.keyDown(field(), { key: 'ArrowUp' });
    });
    expect(panel().querySelector('.search-hit.active')?.getAttribute('data-entry-id')).toBe(target);
    act(() => {
      fireEvent.keyDown(field(), { key: 'ArrowDown' });
    });
    act(() => {
      fireEvent.keyDown(field(), { key: 'Enter' });
    });

    // The hit's session opens with that entry as the selected leaf and the tree's cursor on it.
    await waitFor(() => expect(useAppStore.getState().leaf).toBe(second));
    const key = useAppStore.getState().sessionKey ?? '';
    const { row } = await api.findRow({ key, id: second ?? '', foldAudit: false });
    expect(row).toBeGreaterThan(40); // far down the tree: it had to scroll
    await waitFor(() => expect(cursorId()).toBe(second));
    expect(useAppStore.getState().selectedRow).toBe(row);
    await waitFor(() => expect(useAppStore.getState().leafView?.leaf).toBe(second));
    // Search stays open to go on to the next hit; Esc gives the column back to the library.
    expect(panel()).toBeTruthy();
    act(() => {
      fireEvent.keyDown(field(), { key: 'Escape' });
    });
    expect(screen.getByRole('navigation', { name: 'Library' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Search' })).toBeNull();
    // The query is kept for the next time; the library's search button opens it too.
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: /^Search every session \(Ctrl\+Shift\+F\)$/ }));
    });
    expect((field() as HTMLInputElement).value).toBe('allowed by user');
    expect(document.activeElement).toBe(field());
  });

  it('Ctrl+F searches within the open session only', async () => {
    await renderOnBackend({ demoHome: true, hash: () => `#s=${encodeURIComponent(FACTURE)}` });
    await waitFor(() => expect(document.querySelector('.tree-row')).not.toBeNull());
    chord('f');
    expect(within(panel()).getByRole('button', { name: 'this session' }).getAttribute('aria-pressed')).toBe('true');
    await type('allowed by user');
    await searchDone();
    expect(new Set(hitRows().map((r) => r.split(' · ')[0]))).toEqual(new Set([FACTURE]));
    expect(status()).toMatch(/\(1 file searched\)$/);
    // The scope switch widens it to the home.
    act(() => {
      fireEvent.click(within(panel()).getByRole('button', { name: 'all sessions' }));
    });
    await waitFor(() => expect(new Set(hitRows().map((r) => r.split(' · ')[0])).size).toBeGreaterThan(1));
  });

  it('type-ahead waits for a pause, cancels the superseded search, and pages more in as the list goes on', async () => {
    const api = await renderOnBackend({ demoHome: true });
    await screen.findByText(/Run the full test suite/);
    chord('F', { shift: true });
    // Keys typed quickly: one search, for the last text.
    await type('t');
    await type('th');
    await type('the');
    await waitFor(() => expect(status()).toMatch(/so far/));
    expect(firstPages(api).map((r) => r.query)).toEqual(['the']);
    const first = firstPages(api)[0].searchId;
    // "the" has hundreds of hits: the first screens are fetched, then the search waits.
    const loaded = panel().querySelectorAll('.search-hit').length;
    expect(status()).toMatch(/^\d+ hits so far in \d+ sessions · \d of 7 files searched$/);
    // ↓ past the hits loaded asks for more.
    const total = () => Number(/^(\d+) hits/.exec(status())?.[1] ?? 0);
    const before = total();
    for (let k = 0; k < before; k++)
      act(() => {
        fireEvent.keyDown(field(), { key: 'PageDown' });
      });
    await waitFor(() => expect(total()).toBeGreaterThan(before));
    expect(api.calls.some((c) => c.method === 'search' && (c.req as SearchRequest).cursor)).toBe(true);
    expect(loaded).toBeGreaterThan(0);
    // A new query cancels the one still open on the backend.
    await type('tokenizer');
    await waitFor(() => expect(firstPages(api).map((r) => r.query)).toEqual(['the', 'tokenizer']));
    expect(api.calls.filter((c) => c.method === 'cancelSearch').map((c) => c.req)).toContainEqual({
      searchId: first,
    });
  });

  it('an error is shown in place, and retry runs the search again', async () => {
    let fail = true;
    await renderOnBackend({
      demoHome: true,
      before: (a) =>
        injectFault(a, 'search', (req, real) =>
          fail ? Promise.reject(new ApiError('internal', 'the disk went away')) : real(req),
        ),
    });
    await screen.findByText(/Run the full test suite/);
    chord('F', { shift: true });
    await type('pytest -q');
    const alert = await within(panel()).findByRole('alert');
    expect(alert.textContent).toMatch(/Search failed: .*the disk went away/);
    fail = false;
    act(() => {
      fireEvent.click(within(alert).getByRole('button', { name: 'retry' }));
    });
    await searchDone();
    expect(hitRows().map((r) => r.split(' · ')[1])).toContain(PYTEST_WORK);
  });
});
