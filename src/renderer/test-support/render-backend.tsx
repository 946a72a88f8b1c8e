import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { App } from '../app';
import { dropSessionSources } from '../data/session-sources';
import { resetAppStore } from '../store/app-store';
import { preloadLazyParts } from '../util/lazy-parts';
import { createBackendApi, type BackendApi, type BackendApiOptions } from './backend-api';
import { endAfterTest } from './rendered';

/** The prototype stubbed last: test files may share this module but each may have its own window. */
let stubbed: object | null = null;

/** jsdom has no layout: give scroll containers a size so the virtualizers draw rows. */
export function stubLayout(): void {
  if (stubbed === HTMLElement.prototype) return;
  stubbed = HTMLElement.prototype;
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 800 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1000 });
  // jsdom draws nothing and says so on every call: the context chart skips drawing without a context.
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;
  if (!('ResizeObserver' in window)) {
    (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  }
}

/**
 * Renders the whole app over a real in-process backend on fixture copies, with a fresh store.
 * `hash` builds the URL's hash from the api (e.g. to open a fixture's session at once).
 */
export async function renderOnBackend(
  opts: BackendApiOptions & {
    hash?: (api: BackendApi) => string;
    /** Runs on the api before the app is drawn (fault injection). */
    before?: (api: BackendApi) => void;
  } = { fixtures: ['branching'] },
): Promise<BackendApi> {
  stubLayout();
  cleanup();
  resetAppStore();
  dropSessionSources();
  const api = await createBackendApi(opts);
  endAfterTest(async () => {
    cleanup();
    await api.close();
  });
  opts.before?.(api);
  window.history.replaceState(null, '', `/${opts.hash?.(api) ?? ''}`);
  // The lazy parts (palette, search, …) loaded, as a page has them once its first screen is drawn.
  await preloadLazyParts();
  render(<App api={api} />);
  return api;
}

/** The hash that opens a fixture's session (and, optionally, a leaf). */
export const sessionHash =
  (fixture: string, leaf?: string) =>
  (api: BackendApi): string =>
    `#s=${encodeURIComponent(api.keyOf(fixture))}${leaf ? `&leaf=${leaf}` : ''}`;

/** Renders the app with `fixture` open; resolves once its first tree rows are drawn. */
export async function renderSession(fixture = 'branching', leaf?: string): Promise<BackendApi> {
  const api = await renderOnBackend({ fixtures: [fixture], hash: sessionHash(fixture, leaf) });
  await waitFor(() => expect(document.querySelector('.tree-row[data-entry-id="e0001"]')).not.toBeNull());
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

export async function waitCursor(id: string, timeout = 5000): Promise<void> {
  await waitFor(() => expect(cursorId()).toBe(id), { timeout });
}

export { screen };
