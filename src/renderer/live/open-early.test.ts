// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppState } from '../store/app-store';
import { leafScreen } from '../util/leaf-screen';
import type { Api, CallOptions, TreeRow } from '../../shared/api';
import { API_METHOD_NAMES } from '../api/api-methods';
import { TREE_PAGE } from '../data/session-sources';
import { askActiveLeafPage, askOpenEarly, keepCursorRow, keptRowPage, readKeptRow } from './open-early';

/** A store of just the fields read here, whose changes are told to its subscribers. */
function fakeStore(init: Partial<AppState>) {
  let state = init as AppState;
  const listeners = new Set<(s: AppState) => void>();
  return {
    getState: () => state,
    subscribe: (l: (s: AppState) => void) => (listeners.add(l), () => listeners.delete(l)),
    set: (p: Partial<AppState>) => {
      state = { ...state, ...p };
      for (const l of listeners) l(state);
    },
  };
}

const base = {
  sessionKey: 'k',
  leaf: null,
  foldAudit: false,
  selectedRow: null,
  plan: 'auto',
  profile: { window: 1, reserve: 0, bytes_per_token: 4 },
  overrides: {},
  compare: { open: false },
} as unknown as Partial<AppState>;

beforeEach(() => sessionStorage.clear());

describe('a reload asks what it will show with the open', () => {
  it("asks the cursor's page of rows (kept by the tab) and the leaf view, rows first", () => {
    const store = fakeStore(base);
    const stop = keepCursorRow(store);
    store.set({ selectedRow: 35_900 });
    stop();
    const asked: [string, unknown][] = [];
    askOpenEarly((m, req) => asked.push([m, req]), store.getState(), 'k', keptRowPage(store.getState(), 'k'));
    expect(asked).toEqual([
      ['getTreeRows', { key: 'k', start: 35_840, count: 256, foldAudit: false }],
      [
        'getLeafView',
        {
          key: 'k',
          leaf: null,
          plan: 'auto',
          profile: base.profile,
          overrides: {},
          pagedMessages: true,
          screen: leafScreen(),
        },
      ],
    ]);
  });

  it('asks no rows for another session, selection or folding than the tab kept', () => {
    const store = fakeStore({ ...base, selectedRow: 7 });
    keepCursorRow(store)();
    for (const other of [{ sessionKey: 'other' }, { leaf: 'e1' }, { foldAudit: true }] as Partial<AppState>[]) {
      const asked: string[] = [];
      const st = { ...store.getState(), ...other };
      askOpenEarly((m) => asked.push(m), st, st.sessionKey!, keptRowPage(st, st.sessionKey!));
      expect(asked.filter((m) => m !== 'findRow')).toEqual(['getLeafView']);
    }
  });

  it("a named leaf's row is asked first (the open brings only the active leaf's), then its page and view", () => {
    const store = fakeStore({ ...base, leaf: 'e1', foldAudit: true });
    const stop = keepCursorRow(store);
    store.set({ selectedRow: 300 });
    stop();
    const asked: [string, unknown][] = [];
    askOpenEarly((m, req) => asked.push([m, req]), store.getState(), 'k', keptRowPage(store.getState(), 'k'));
    expect(asked.map(([m]) => m)).toEqual(['findRow', 'getTreeRows', 'getLeafView']);
    expect(asked[0][1]).toEqual({ key: 'k', id: 'e1', foldAudit: true });
    expect(asked[1][1]).toEqual({ key: 'k', start: 256, count: 256, foldAudit: true });
  });

  it('the active leaf (no leaf named) asks no row: the open brings it', () => {
    const asked: string[] = [];
    askOpenEarly((m) => asked.push(m), fakeStore(base).getState(), 'k', keptRowPage(fakeStore(base).getState(), 'k'));
    expect(asked).toEqual(['getLeafView']);
  });

  it('a damaged kept value asks no rows', () => {
    sessionStorage.setItem('vak-explorer.opened-row.v1', '{"key":"k","leaf":null,"foldAudit":false,"row":-1}');
    const asked: string[] = [];
    askOpenEarly((m) => asked.push(m), fakeStore(base).getState(), 'k', keptRowPage(fakeStore(base).getState(), 'k'));
    expect(asked).toEqual(['getLeafView']);
  });
});

describe("the kept row is read once, at the page's start", () => {
  it('the early asks take what was read then, once; later asks read the storage again', () => {
    const store = fakeStore({ ...base, selectedRow: 300 });
    keepCursorRow(store)();
    readKeptRow();
    // The tab keeps a new row after the start (the open's answer moved the cursor).
    store.set({ selectedRow: 35_900 });
    keepCursorRow(store)();
    const first: [string, unknown][] = [];
    askOpenEarly((m, req) => first.push([m, req]), store.getState(), 'k', keptRowPage(store.getState(), 'k'));
    expect(first[0]).toEqual(['getTreeRows', { key: 'k', start: 256, count: 256, foldAudit: false }]);
    const again: [string, unknown][] = [];
    askOpenEarly((m, req) => again.push([m, req]), store.getState(), 'k', keptRowPage(store.getState(), 'k'));
    expect(again[0]).toEqual(['getTreeRows', { key: 'k', start: 35_840, count: 256, foldAudit: false }]);
  });
});

/** An Api that records its calls (with their signals) and answers when told to. */
function recordingApi() {
  const calls: {
    method: string;
    req: unknown;
    signal?: AbortSignal;
    answer: (v: unknown) => void;
    fail: (e: unknown) => void;
  }[] = [];
  const api = { onEvent: () => () => undefined } as Record<string, unknown>;
  for (const m of API_METHOD_NAMES) {
    api[m] = (req: unknown, opts?: CallOptions) =>
      new Promise((resolve, reject) => {
        calls.push({ method: m, req, signal: opts?.signal, answer: resolve, fail: reject });
        opts?.signal?.addEventListener('abort', () => reject(new Error('cancelled')));
      });
  }
  return { api: api as unknown as Api, calls };
}

const page = (start: number) => ({ total: 36_000, laneCount: 2, rows: [{ row: start }] as TreeRow[] });

describe("a click in the library asks the active leaf's page of rows with the open", () => {
  it('asks the page holding the active leaf, and the tree takes it when it asks that very page', async () => {
    const { api, calls } = recordingApi();
    const early = askActiveLeafPage(api, 'k', false);
    expect(calls.map((c) => [c.method, c.req])).toEqual([
      ['getTreeRows', { key: 'k', start: 0, count: TREE_PAGE, foldAudit: false, holding: 'activeLeaf' }],
    ]);
    // The open's answer told the row: the tree asks its page, before the early answer came.
    const got = early.api.getTreeRows({ key: 'k', start: 35_840, count: TREE_PAGE, foldAudit: false });
    expect(calls).toHaveLength(1);
    calls[0].answer({ ...page(35_840), start: 35_840 });
    await expect(got).resolves.toEqual(page(35_840));
    // Taken once: the next request is the tree's own.
    void early.api.getTreeRows({ key: 'k', start: 0, count: TREE_PAGE, foldAudit: false });
    expect(calls).toHaveLength(2);
    early.drop();
    expect(calls[0].signal?.aborted).toBe(false);
  });

  it('answers no other page: one the answer does not name is asked as the tree asks it', async () => {
    const { api, calls } = recordingApi();
    const early = askActiveLeafPage(api, 'k', false);
    const got = early.api.getTreeRows({ key: 'k', start: 35_840, count: TREE_PAGE, foldAudit: false });
    // An append moved the active leaf to the next page between the open's answer and this one.
    calls[0].answer({ ...page(36_096), start: 36_096 });
    await Promise.resolve();
    await Promise.resolve();
    expect(calls.map((c) => c.req)).toEqual([
      expect.objectContaining({ holding: 'activeLeaf' }),
      { key: 'k', start: 35_840, count: TREE_PAGE, foldAudit: false },
    ]);
    calls[1].answer(page(35_840));
    await expect(got).resolves.toEqual(page(35_840));
  });

  it('a first request for another session, folding or size drops it (cancelled) and is sent as asked', () => {
    for (const other of [{ key: 'other' }, { foldAudit: true }, { count: 10 }]) {
      const { api, calls } = recordingApi();
      const early = askActiveLeafPage(api, 'k', false);
      void early.api.getTreeRows({ key: 'k', start: 0, count: TREE_PAGE, foldAudit: false, ...other });
      expect(calls).toHaveLength(2);
      expect(calls[0].signal?.aborted).toBe(true);
      expect(calls[1].req).toEqual({ key: 'k', start: 0, count: TREE_PAGE, foldAudit: false, ...other });
    }
  });

  it('dropped unasked, its request is cancelled; the taker’s abort cancels it too', async () => {
    const a = recordingApi();
    askActiveLeafPage(a.api, 'k', false).drop();
    expect(a.calls[0].signal?.aborted).toBe(true);
    const b = recordingApi();
    const early = askActiveLeafPage(b.api, 'k', true);
    const ctl = new AbortController();
    const got = early.api.getTreeRows(
      { key: 'k', start: 256, count: TREE_PAGE, foldAudit: true },
      { signal: ctl.signal },
    );
    ctl.abort();
    expect(b.calls[0].signal?.aborted).toBe(true);
    await expect(got).rejects.toThrow('cancelled');
    expect(b.calls).toHaveLength(1);
  });

  it('a failed early page is asked once more, as the tree asks it', async () => {
    const { api, calls } = recordingApi();
    const early = askActiveLeafPage(api, 'k', false);
    const got = early.api.getTreeRows({ key: 'k', start: 0, count: TREE_PAGE, foldAudit: false });
    calls[0].fail(new Error('busy'));
    await Promise.resolve();
    await Promise.resolve();
    expect(calls).toHaveLength(2);
    calls[1].answer(page(0));
    await expect(got).resolves.toEqual(page(0));
  });
});
