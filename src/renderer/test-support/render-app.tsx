import { expect } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../app';
import { createFakeApi, type FakeApi, type FakeApiOptions } from '../api/fake-api';
import { SESSION_A } from '../api/fake-data';
import { resetAppStore } from '../store/app-store';
import { dropSessionSources } from '../data/session-sources';

let stubbed = false;

/** jsdom has no layout: give scroll containers a size so the virtualizers draw rows. */
export function stubLayout(): void {
  if (stubbed) return;
  stubbed = true;
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 800 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1000 });
  if (!('ResizeObserver' in window)) {
    (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  }
}

/** Renders the whole app over a fresh fake API and store. */
export function renderApp(opts: FakeApiOptions & { hash?: string } = {}): FakeApi {
  stubLayout();
  cleanup();
  resetAppStore();
  dropSessionSources();
  window.history.replaceState(null, '', `/${opts.hash ?? ''}`);
  const api = createFakeApi(opts);
  render(<App api={api} />);
  return api;
}

/** Renders the app and opens session A; resolves once its tree rows are drawn. */
export async function renderWithSession(opts: FakeApiOptions & { hash?: string } = {}): Promise<FakeApi> {
  const api = renderApp({ hash: `#s=${encodeURIComponent(SESSION_A)}`, ...opts });
  await screen.findByText('List the TODO comments under src/.', { selector: '.tree-row .row-text' });
  return api;
}

/** Sends a key to the window the way a person would with no field focused. */
export function press(key: string): void {
  act(() => {
    fireEvent.keyDown(document.body, { key });
  });
}

export const treeRow = (id: string): HTMLElement => {
  const el = document.querySelector<HTMLElement>(`.tree-row[data-entry-id="${id}"]`);
  if (!el) throw new Error(`no tree row for ${id}`);
  return el;
};

/** The entry id of the cursor row. */
export const cursorId = (): string | null =>
  document.querySelector('.tree-row.cursor')?.getAttribute('data-entry-id') ?? null;

export async function waitCursor(id: string): Promise<void> {
  await waitFor(() => expect(cursorId()).toBe(id));
}
