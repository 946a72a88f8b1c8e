// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppState } from '../store/app-store';
import { leafScreen } from '../util/leaf-screen';
import { askOpenEarly, keepCursorRow, readKeptRow } from './open-early';

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
    askOpenEarly((m, req) => asked.push([m, req]), store.getState(), 'k');
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
      askOpenEarly((m) => asked.push(m), st, st.sessionKey!);
      expect(asked.filter((m) => m !== 'findRow')).toEqual(['getLeafView']);
    }
  });

  it("a named leaf's row is asked first (the open brings only the active leaf's), then its page and view", () => {
    const store = fakeStore({ ...base, leaf: 'e1', foldAudit: true });
    const stop = keepCursorRow(store);
    store.set({ selectedRow: 300 });
    stop();
    const asked: [string, unknown][] = [];
    askOpenEarly((m, req) => asked.push([m, req]), store.getState(), 'k');
    expect(asked.map(([m]) => m)).toEqual(['findRow', 'getTreeRows', 'getLeafView']);
    expect(asked[0][1]).toEqual({ key: 'k', id: 'e1', foldAudit: true });
    expect(asked[1][1]).toEqual({ key: 'k', start: 256, count: 256, foldAudit: true });
  });

  it('the active leaf (no leaf named) asks no row: the open brings it', () => {
    const asked: string[] = [];
    askOpenEarly((m) => asked.push(m), fakeStore(base).getState(), 'k');
    expect(asked).toEqual(['getLeafView']);
  });

  it('a damaged kept value asks no rows', () => {
    sessionStorage.setItem('vak-explorer.opened-row.v1', '{"key":"k","leaf":null,"foldAudit":false,"row":-1}');
    const asked: string[] = [];
    askOpenEarly((m) => asked.push(m), fakeStore(base).getState(), 'k');
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
    askOpenEarly((m, req) => first.push([m, req]), store.getState(), 'k');
    expect(first[0]).toEqual(['getTreeRows', { key: 'k', start: 256, count: 256, foldAudit: false }]);
    const again: [string, unknown][] = [];
    askOpenEarly((m, req) => again.push([m, req]), store.getState(), 'k');
    expect(again[0]).toEqual(['getTreeRows', { key: 'k', start: 35_840, count: 256, foldAudit: false }]);
  });
});
