// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ACTIONS, actionForKey } from '../actions/registry';
import { keyChord } from '../keyboard/key-map';
import { useAppStore } from '../store/app-store';
import { injectFault } from '../test-support/api-faults';
import { press, renderOnBackend } from '../test-support/render-backend';

const FACTURE = 'agents/vak/sessions/3f7fe33c03d36fc4/01a212d8-6020-771d-86dd-af00b0056a14.jsonl';
/** An entry of FACTURE far from its root (the work entry that says "pytest -q"). */
const WORK = '01a212e5-888b-7ea9-b19e-60af2a2b174a';

const openPalette = () =>
  act(() => {
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'k', ctrlKey: true });
  });
const dialog = () => screen.getByRole('dialog', { name: 'Command palette' });
const input = () => within(dialog()).getByRole('combobox');
const typeIn = (text: string) =>
  act(() => {
    fireEvent.change(input(), { target: { value: text } });
  });
const key = (k: string) =>
  act(() => {
    fireEvent.keyDown(input(), { key: k });
  });
/** The listed titles, in order. */
const titles = () => [...dialog().querySelectorAll('[role=option] .palette-title')].map((el) => el.textContent ?? '');
const activeTitle = () => dialog().querySelector('[role=option][aria-selected=true] .palette-title')?.textContent;

describe('command palette on the real backend (demo home)', () => {
  it('Ctrl+K lists every action with its key; ↑/↓ move; Esc closes and the focus goes back', async () => {
    await renderOnBackend({ demoHome: true });
    await screen.findByText(/Run the full test suite/);
    const filter = screen.getByLabelText('Filter sessions');
    filter.focus();
    openPalette();
    expect(document.activeElement).toBe(input());
    // Every registered action is listed, with the key the overlay shows for it.
    const listed = [...dialog().querySelectorAll<HTMLElement>('[data-palette-id^="action:"]')];
    expect(listed.map((el) => el.dataset.paletteId)).toEqual(ACTIONS.map((a) => `action:${a.id}`));
    const fold = listed.find((el) => el.dataset.paletteId === 'action:tree.foldAudit');
    expect(fold?.querySelector('kbd')?.textContent).toBe('a');
    const search = listed.find((el) => el.dataset.paletteId === 'action:search.home');
    expect(search?.querySelector('kbd')?.textContent).toBe('Ctrl+Shift+F');
    // And the newest sessions, by title.
    expect(titles()).toContain('Open session: Why is `apply_discount` so slow on a 50 MB input? Ünïcödé ✓');

    expect(activeTitle()).toBe(titles()[0]);
    key('ArrowDown');
    expect(activeTitle()).toBe(titles()[1]);
    key('ArrowUp');
    key('ArrowUp'); // wraps to the end
    expect(activeTitle()).toBe(titles().at(-1));
    key('Escape');
    expect(screen.queryByRole('dialog', { name: 'Command palette' })).toBeNull();
    expect(document.activeElement).toBe(filter);
    // The key toggles it too.
    openPalette();
    expect(dialog()).toBeTruthy();
    openPalette();
    expect(screen.queryByRole('dialog', { name: 'Command palette' })).toBeNull();
  });

  it('fuzzy order: word starts first; Enter runs the action', async () => {
    await renderOnBackend({ demoHome: true });
    await screen.findByText(/Run the full test suite/);
    openPalette();
    typeIn('fold');
    expect(titles()[0]).toBe('Fold audit runs (on / off)');
    typeIn('pn');
    // P…n: "Plan: none" starts both words; "Plan: auto" has no n at a word start.
    expect(titles().slice(0, 1)).toEqual(['Plan: none (every turn Full)']);
    expect(dialog().querySelector('[role=option] .palette-title b')?.textContent).toBe('P');
    key('Enter');
    expect(useAppStore.getState().plan).toBe('none');
    expect(screen.queryByRole('dialog', { name: 'Command palette' })).toBeNull();

    openPalette();
    typeIn('srch every');
    expect(titles()[0]).toBe('Search every session of the home');
    key('Enter');
    const search = await screen.findByRole('navigation', { name: 'Search' });
    await waitFor(() => expect(document.activeElement).toBe(within(search).getByRole('searchbox')));
  });

  it('a profile action asks for its value in place and refuses a bad one', async () => {
    await renderOnBackend({ demoHome: true });
    await screen.findByText(/Run the full test suite/);
    openPalette();
    typeIn('window');
    expect(titles()[0]).toBe('Set profile: context window…');
    key('Enter');
    expect(input().getAttribute('aria-label')).toBe('Context window in tokens');
    expect((input() as HTMLInputElement).value).toBe('200000');
    typeIn('lots');
    key('Enter');
    expect(within(dialog()).getByRole('alert').textContent).toBe('type a whole number');
    typeIn('10000');
    key('Enter');
    // The reserve (16,000) must stay below the window: refused with the plan bar's words.
    expect(within(dialog()).getByRole('alert').textContent).toMatch(/reserve \(16,000\) must be below the window/);
    typeIn('150,000');
    key('Enter');
    expect(useAppStore.getState().profile.window).toBe(150_000);
    expect(screen.queryByRole('dialog', { name: 'Command palette' })).toBeNull();
  });

  it('opens a session by title, and goes to an entry by the tail of its id', async () => {
    await renderOnBackend({ demoHome: true });
    await screen.findByText(/Run the full test suite/);
    openPalette();
    typeIn('apply_discount');
    expect(titles()[0]).toMatch(/^Open session: Why is `apply_discount`/);
    key('Enter');
    await waitFor(() => expect(useAppStore.getState().sessionInfo?.activeLeaf).toBeTruthy());
    expect(useAppStore.getState().sessionKey).toBe(FACTURE);

    openPalette();
    typeIn(WORK.slice(-8));
    await waitFor(() => expect(titles()[0]).toBe(`Go to entry ${WORK}`));
    expect(dialog().querySelector('[role=option] .palette-detail')?.textContent).toMatch(/^work · line \d+$/);
    key('Enter');
    await waitFor(() => expect(useAppStore.getState().leaf).toBe(WORK));
    await waitFor(() => expect(useAppStore.getState().leafView?.leaf).toBe(WORK));
  });

  it('with no session open, an id is looked for page after page, with progress, and stop cancels it', async () => {
    const cancelled: string[] = [];
    let asked = 0;
    await renderOnBackend({
      demoHome: true,
      before: (a) => {
        // The backend's first page as a big home would give it (nothing yet, more to read); the next never comes.
        injectFault(a, 'search', async (req, real) => {
          if (req.match !== 'id') return real(req);
          asked++;
          if (req.cursor !== undefined) return new Promise(() => undefined);
          const page = await real({ ...req, scope: { kind: 'home' } });
          return { ...page, sessions: [], hits: 0, done: false, cursor: `${req.searchId}:1`, filesScanned: 1 };
        });
        injectFault(a, 'cancelSearch', async (req, real) => {
          cancelled.push(req.searchId);
          return real(req);
        });
      },
    });
    await screen.findByText(/Run the full test suite/);
    expect(useAppStore.getState().sessionKey).toBeNull();
    openPalette();
    typeIn('zzzz-no-such');
    const status = await within(dialog()).findByRole('status');
    await waitFor(() => expect(status.textContent).toMatch(/looking for the entry · 1 of \d+ files searched/));
    // Asked again at once: the first page had nothing and more to read.
    await waitFor(() => expect(asked).toBe(2));
    fireEvent.click(within(status).getByRole('button', { name: 'stop' }));
    await waitFor(() => expect(within(dialog()).getByRole('status').textContent).toMatch(/^stopped · 1 of \d+ files/));
    expect(cancelled).toHaveLength(1);
    expect(document.activeElement).toBe(input());
  });

  it('the keys overlay and the palette list the same actions from the one registry', async () => {
    await renderOnBackend({ demoHome: true });
    await screen.findByText(/Run the full test suite/);
    press('?');
    const overlay = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    const inOverlay = [...overlay.querySelectorAll<HTMLElement>('[data-action-id]')].map((el) => ({
      id: el.dataset.actionId,
      keys: el.querySelector('kbd')?.textContent,
    }));
    press('Escape');
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
    openPalette();
    const inPalette = [...dialog().querySelectorAll<HTMLElement>('[data-palette-id^="action:"]')]
      .filter((el) => el.querySelector('kbd'))
      .map((el) => ({ id: el.dataset.paletteId?.slice('action:'.length), keys: el.querySelector('kbd')?.textContent }));
    // Every key in the overlay is a palette action with the same key, and every palette action with a key is in the overlay.
    expect(inOverlay).toEqual(inPalette);
    expect(inOverlay.length).toBe(ACTIONS.filter((a) => a.keys?.length).length);
    // The keys the app had before the registry are all still there, each bound once.
    const chords = ACTIONS.flatMap((a) => a.keys ?? []);
    expect(new Set(chords).size).toBe(chords.length);
    for (const k of ['j', 'ArrowDown', 'k', 'ArrowUp', 'h', 'ArrowLeft', 'l', 'ArrowRight', '[', ']', 'Home', 'End']) {
      expect(actionForKey(k)?.id).toMatch(/^nav\./);
    }
    const bound = (k: string) => actionForKey(k)?.id;
    expect(['/', 'b', 'c', 'd', 'f', 'p', 'a', 'w', 'u', 't', 'Escape', '?'].map(bound)).toEqual([
      'library.filter',
      'branch.compose',
      'compare.toggle',
      'compare.diff',
      'session.follow',
      'plan.toggle',
      'tree.foldAudit',
      'panel.warnings',
      'panel.usage',
      'panel.plan',
      'escape',
      'keys.overlay',
    ]);
    expect(bound(keyChord({ key: 'F', ctrlKey: true, metaKey: false, altKey: false, shiftKey: true }) ?? '')).toBe(
      'search.home',
    );
    expect(bound(keyChord({ key: 'f', ctrlKey: false, metaKey: true, altKey: false, shiftKey: false }) ?? '')).toBe(
      'search.session',
    );
  });
});
