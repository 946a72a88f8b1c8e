import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api, ApiEvent, LeafView, SessionDelta, SessionInfo } from '../../shared/api';
import { currentTreeSource } from '../data/session-sources';
import { startLeafLoader } from '../leaf/leaf-loader';
import { resetAppStore, useAppStore } from '../store/app-store';
import { rowNumberOf } from '../tree/tree-nav';
import { SessionController } from './session-controller';

const KEY = 'agents/vak/sessions/0000000000000000/s.jsonl';
const st = useAppStore.getState;

const info = (over: Partial<SessionInfo> = {}): SessionInfo =>
  ({
    key: KEY,
    entryCount: 10,
    activeLeaf: 'e9',
    warningCount: 0,
    branchPoints: 0,
    leaves: 1,
    rowCount: 10,
    foldedRowCount: 10,
    laneCount: 1,
    reading: null,
    checkingHashes: false,
    ...over,
  }) as SessionInfo;

const delta = (rowCount: number): SessionDelta =>
  ({
    rowCount,
    foldedRowCount: rowCount,
    firstNewIndex: rowCount - 1,
    foldedFirstRow: rowCount - 1,
    rows: null,
    foldedRows: null,
    redraw: { start: 0, end: 0 },
    redrawFolded: { start: 0, end: 0 },
    laneCount: 1,
    leafCount: 1,
    warningCount: 0,
    branchPointsAdded: 0,
    usage: {},
  }) as unknown as SessionDelta;

interface Call {
  method: string;
  req: unknown;
  signal?: AbortSignal;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/** An Api whose answers the test gives by hand, in the order it chooses; events sent by `emit`. */
function fakeApi() {
  const calls: Call[] = [];
  const listeners = new Set<(e: ApiEvent) => void>();
  const call =
    (method: string) =>
    (req: unknown, opts?: { signal?: AbortSignal }): Promise<unknown> =>
      new Promise((resolve, reject) => {
        calls.push({ method, req, signal: opts?.signal, resolve, reject });
        opts?.signal?.addEventListener('abort', () => reject(new Error('cancelled')));
      });
  const api = new Proxy(
    {
      onEvent: (l: (e: ApiEvent) => void) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      subscribe: () => Promise.resolve({ subscription: 's1' }),
      unsubscribe: () => Promise.resolve({}),
    } as Record<string, unknown>,
    { get: (t, m: string) => t[m] ?? call(m) },
  ) as unknown as Api;
  return {
    api,
    calls,
    of: (method: string) => calls.filter((c) => c.method === method),
    /** The `n`th call of `method`, once it is made (the controller's queue asks in a later microtask). */
    nth: async (method: string, n: number): Promise<Call> => {
      for (let i = 0; i < 50; i++) {
        const c = calls.filter((x) => x.method === method)[n];
        if (c) return c;
        await new Promise((r) => setTimeout(r, 0));
      }
      throw new Error(`${method} #${n} was never asked`);
    },
    emit: (e: ApiEvent) => listeners.forEach((l) => l(e)),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

/** `count` tree rows from `start`, each named r<row> (only the id matters here). */
const treeRows = (start: number, count: number) => Array.from({ length: count }, (_, k) => ({ id: `r${start + k}` }));

const appended = (entryCount: number, extra: Partial<Extract<ApiEvent, { type: 'session' }>> = {}): ApiEvent => ({
  type: 'session',
  key: KEY,
  change: 'appended',
  entryCount,
  activeLeaf: `e${entryCount - 1}`,
  newIds: [`e${entryCount - 1}`],
  delta: delta(entryCount),
  ...extra,
});

describe('the session controller applies the session’s events in order', () => {
  beforeEach(() => {
    resetAppStore();
    st().selectSession(KEY);
  });

  it('an append that arrives while a reload is answered is applied after it, not undone by it', async () => {
    const f = fakeApi();
    const c = new SessionController(f.api, KEY, st);
    c.start();
    (await f.nth('openSession', 0)).resolve(info());
    await tick();
    (await f.nth('findRow', 0)).resolve({ row: 9 });
    await c.settled();
    // A reload: its openSession is on the way when an append (with its delta) arrives.
    f.emit({ type: 'session', key: KEY, change: 'reloaded', entryCount: 10, activeLeaf: 'e9', newIds: [] });
    await tick();
    f.emit(appended(11));
    await tick();
    expect(f.of('openSession')).toHaveLength(2);
    // The reload's answer describes the file before the append.
    (await f.nth('openSession', 1)).resolve(info({ entryCount: 10 }));
    await tick();
    f.of('findRow').at(-1)?.resolve({ row: 9 });
    await c.settled();
    expect(st().sessionInfo?.entryCount).toBe(11);
    c.stop();
  });

  it('progress that comes after an open read whole is not shown', async () => {
    const f = fakeApi();
    const c = new SessionController(f.api, KEY, st);
    c.start();
    (await f.nth('openSession', 0)).resolve(info({ reading: null }));
    await vi.waitFor(() => expect(st().sessionInfo?.reading).toBeNull());
    // Its read's last progress, after the reply (a transport that does not keep them in order).
    f.emit({ type: 'progress', key: KEY, bytesRead: 100, bytesTotal: 100, entriesRead: 3 });
    expect(st().progress).toBeNull();
    c.stop();
  });

  it('progress moves the bar while the open is answered, and stops at the read’s end', async () => {
    const f = fakeApi();
    const c = new SessionController(f.api, KEY, st);
    c.start();
    f.emit({ type: 'progress', key: KEY, bytesRead: 10, bytesTotal: 100, entriesRead: 3 });
    expect(st().progress).toEqual({ bytesRead: 10, bytesTotal: 100, entriesRead: 3 });
    (await f.nth('openSession', 0)).resolve(info({ reading: { bytesRead: 20, bytesTotal: 100, entriesRead: 3 } }));
    await c.settled();
    f.emit(appended(11, { reading: null }));
    // A late progress event after the end is not shown.
    f.emit({ type: 'progress', key: KEY, bytesRead: 90, bytesTotal: 100, entriesRead: 3 });
    expect(st().progress).toEqual({ bytesRead: 20, bytesTotal: 100, entriesRead: 3 });
    c.stop();
  });

  it('the end of a first read without the figures on its event asks them once and fetches no row or leaf view again', async () => {
    const f = fakeApi();
    const c = new SessionController(f.api, KEY, st);
    const stopLoader = startLeafLoader(f.api, useAppStore);
    c.start();
    (await f.nth('openSession', 0)).resolve(
      info({ reading: { bytesRead: 20, bytesTotal: 100, entriesRead: 3 }, entryCount: 5 }),
    );
    await c.settled();
    // The active leaf of a read under way is only the last entry read: no row is looked up for it.
    expect(f.of('findRow')).toHaveLength(0);
    // The tree opens on the top rows: their page is asked at the open, before the leaf view.
    expect(f.calls.map((x) => x.method).filter((m) => m !== 'openSession')).toEqual(['getTreeRows', 'getLeafView']);
    expect(f.of('getTreeRows')[0].req).toMatchObject({ start: 0 });
    // The active leaf's view is asked once the session is open; it waits for the read in the backend.
    expect(f.of('getLeafView')).toHaveLength(1);
    f.emit(appended(8, { reading: { bytesRead: 60, bytesTotal: 100, entriesRead: 3 } }));
    f.emit(appended(10, { reading: null }));
    await tick();
    (await f.nth('openSession', 1)).resolve(info());
    await tick();
    f.of('findRow').at(-1)?.resolve({ row: 9 });
    await c.settled();
    expect(f.of('openSession')).toHaveLength(2);
    // The cursor goes to the file's active leaf once it is known: one lookup.
    expect(f.of('findRow').map((x) => (x.req as { id: string }).id)).toEqual(['e9']);
    expect(st().selectedRow).toBe(9);
    expect(st().treeVersion).toBe(0);
    // Still the one view, not aborted: it answers for the whole file.
    expect(f.of('getLeafView')).toHaveLength(1);
    expect(f.of('getLeafView')[0].signal?.aborted).toBe(false);
    // An append after the read does change the active leaf's view: asked again.
    f.emit(appended(11));
    await c.settled();
    expect(f.of('getLeafView')).toHaveLength(2);
    stopLoader();
    c.stop();
  });

  it('a first open whose read-end event brings the figures asks openSession once and no findRow', async () => {
    const f = fakeApi();
    const c = new SessionController(f.api, KEY, st);
    const stopLoader = startLeafLoader(f.api, useAppStore);
    c.start();
    (await f.nth('openSession', 0)).resolve(
      info({ reading: { bytesRead: 20, bytesTotal: 100, entriesRead: 3 }, entryCount: 5 }),
    );
    await c.settled();
    f.emit(appended(8, { reading: { bytesRead: 60, bytesTotal: 100, entriesRead: 3 } }));
    f.emit(appended(10, { reading: null, info: info({ activeLeafRows: { row: 9, foldedRow: 7 } }) }));
    await c.settled();
    expect(f.of('openSession')).toHaveLength(1);
    expect(f.of('findRow')).toHaveLength(0);
    expect(st().sessionInfo?.entryCount).toBe(10);
    expect(st().selectedRow).toBe(9);
    // The tree's cursor effect, run when React renders the new figures, asks for that row too:
    // it is known, not asked.
    await expect(rowNumberOf(f.api, 'e9')).resolves.toBe(9);
    expect(f.of('findRow')).toHaveLength(0);
    expect(f.of('getLeafView')).toHaveLength(1);
    stopLoader();
    c.stop();
  });

  it('a stopped controller applies nothing that arrives later', async () => {
    const f = fakeApi();
    const c = new SessionController(f.api, KEY, st);
    c.start();
    const open = await f.nth('openSession', 0);
    c.stop();
    open.resolve(info({ entryCount: 99 }));
    f.emit({ type: 'session', key: KEY, change: 'removed', entryCount: 0, activeLeaf: null, newIds: [] });
    await c.settled();
    expect(st().sessionInfo).toBeNull();
    expect(st().sessionError).toBeNull();
  });
});

describe('the leaf loader asks once, at once', () => {
  beforeEach(() => {
    resetAppStore();
    st().selectSession(KEY);
    st().sessionOpened(info());
  });

  it('a selection’s request leaves in the same task, and the one it replaces is cancelled', () => {
    const f = fakeApi();
    const stop = startLeafLoader(f.api, useAppStore);
    expect(f.of('getLeafView')).toHaveLength(1);
    st().selectLeaf('e3', 3);
    // No await: the request is already out.
    expect(f.of('getLeafView').map((c) => (c.req as { leaf: string | null }).leaf)).toEqual([null, 'e3']);
    expect(f.of('getLeafView')[0].signal?.aborted).toBe(true);
    expect((f.of('getLeafView')[1].req as { pagedMessages: boolean }).pagedMessages).toBe(true);
    stop();
    expect(f.of('getLeafView')[1].signal?.aborted).toBe(true);
  });

  it('changes the view does not depend on (hover, the cursor, appends to another leaf) ask nothing', () => {
    const f = fakeApi();
    const stop = startLeafLoader(f.api, useAppStore);
    st().selectLeaf('e3', 3);
    st().placeCursor(5);
    st().setHover({ entries: ['e1'], messages: [] });
    st().sessionAppended({ ...info({ entryCount: 11, activeLeaf: 'e10' }), usage: info().usage });
    st().selectLeaf('e3', 3);
    expect(f.of('getLeafView')).toHaveLength(2);
    stop();
  });

  it('hands the answer to the store; a cancelled one is dropped', async () => {
    const f = fakeApi();
    const stop = startLeafLoader(f.api, useAppStore);
    const first = f.of('getLeafView')[0];
    st().selectLeaf('e3', 3);
    first.resolve({ leaf: 'e9' } as LeafView);
    f.of('getLeafView')[1].resolve({ leaf: 'e3' } as LeafView);
    await tick();
    expect(st().leafView?.leaf).toBe('e3');
    expect(st().leafViewRequest?.leaf).toBe('e3');
    expect(st().leafLoading).toBe(false);
    stop();
  });
});

describe('the way in: a session opens with as few round trips as it can', () => {
  beforeEach(() => resetAppStore());

  it('the active leaf’s row comes with the open: no findRow, its rows asked before the leaf view', async () => {
    const f = fakeApi();
    st().selectSession(KEY);
    const stopLoader = startLeafLoader(f.api, useAppStore);
    const c = new SessionController(f.api, KEY, st);
    c.start();
    (await f.nth('openSession', 0)).resolve(
      info({ rowCount: 600, foldedRowCount: 500, activeLeafRows: { row: 590, foldedRow: 490 } }),
    );
    await c.settled();
    expect(st().selectedRow).toBe(590);
    expect(st().scrollToRow).toBe(590);
    // The page holding the row was asked first; then the leaf view; no row was looked up.
    expect(f.calls.map((x) => x.method).filter((m) => m !== 'subscribe')).toEqual([
      'openSession',
      'getTreeRows',
      'getLeafView',
    ]);
    expect(f.of('getTreeRows')[0].req).toMatchObject({ start: 512, count: 256, foldAudit: false });
    // Anyone asking for the active leaf's row later (the cursor following the view) is answered from memory.
    expect(await rowNumberOf(f.api, 'e9')).toBe(590);
    expect(f.of('findRow')).toHaveLength(0);
    stopLoader();
    c.stop();
  });

  it('a page that asked its leaf view with the open hears of the open with its first rows here', async () => {
    const f = fakeApi();
    st().selectSession(KEY);
    // What the store held when it first heard of the open: the tree's row under the cursor, or not.
    const seen: (string | undefined)[] = [];
    const unsub = useAppStore.subscribe((s, prev) => {
      if (s.sessionInfo && !prev.sessionInfo) seen.push(currentTreeSource()?.get(590)?.id);
    });
    const c = new SessionController(f.api, KEY, st);
    c.start({ leafViewAsked: true });
    (await f.nth('openSession', 0)).resolve(
      info({ rowCount: 600, foldedRowCount: 500, activeLeafRows: { row: 590, foldedRow: 490 } }),
    );
    const rows = await f.nth('getTreeRows', 0);
    await tick();
    expect(st().sessionInfo).toBeNull();
    rows.resolve({ total: 600, laneCount: 1, rows: treeRows(512, 88) });
    await c.settled();
    expect(seen).toEqual(['r590']);
    expect(st().selectedRow).toBe(590);
    expect(f.of('getTreeRows')).toHaveLength(1);
    unsub();
    c.stop();
  });

  it('a first read opened by a page waits for its top rows; a failed page still opens the session', async () => {
    const f = fakeApi();
    st().selectSession(KEY);
    const c = new SessionController(f.api, KEY, st);
    c.start({ leafViewAsked: true });
    (await f.nth('openSession', 0)).resolve(
      info({ rowCount: 300, reading: { bytesRead: 10, bytesTotal: 100, entriesRead: 3 } }),
    );
    const rows = await f.nth('getTreeRows', 0);
    expect(rows.req).toMatchObject({ start: 0 });
    await tick();
    expect(st().sessionInfo).toBeNull();
    rows.reject(new Error('refused'));
    await c.settled();
    expect(st().sessionInfo?.rowCount).toBe(300);
    expect(currentTreeSource()?.error).toContain('refused');
    c.stop();
  });

  it('a selection made while a page’s first rows come keeps its cursor', async () => {
    const f = fakeApi();
    st().selectSession(KEY);
    const c = new SessionController(f.api, KEY, st);
    c.start({ leafViewAsked: true });
    (await f.nth('openSession', 0)).resolve(info({ activeLeafRows: { row: 9, foldedRow: 9 } }));
    const rows = await f.nth('getTreeRows', 0);
    st().selectLeaf('e4');
    rows.resolve({ total: 10, laneCount: 1, rows: treeRows(0, 10) });
    await c.settled();
    expect(st().sessionInfo).not.toBeNull();
    expect(st().leaf).toBe('e4');
    expect(st().selectedRow).not.toBe(9);
    c.stop();
  });

  it('a leaf named by the URL other than the active one is still looked up', async () => {
    const f = fakeApi();
    st().selectSession(KEY);
    st().selectLeaf('e3');
    const c = new SessionController(f.api, KEY, st);
    c.start();
    (await f.nth('openSession', 0)).resolve(info({ activeLeafRows: { row: 9, foldedRow: 9 } }));
    (await f.nth('findRow', 0)).resolve({ row: 3 });
    await c.settled();
    expect(f.of('findRow')[0].req).toMatchObject({ id: 'e3' });
    expect(st().selectedRow).toBe(3);
    c.stop();
  });
});
