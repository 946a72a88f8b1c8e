import type { Api, ApiRequest, SessionKey, TreeRowsResult } from '../../shared/api';
import type { AskEarly } from '../api/early-asks';
import { TREE_PAGE } from '../data/session-sources';
import type { AppState } from '../store/app-store';
import { leafViewRequestOf, pagedOf } from '../store/leaf-request';
import { readTreeViewport } from '../data/tree-viewport';

/** The row of the tab's cursor and what was selected then, kept for the tab's next load (a reload). */
const STORE_KEY = 'vak-explorer.opened-row.v1';

interface OpenedRow {
  key: string;
  /** The selection the session was opened with (null: its active leaf). */
  leaf: string | null;
  foldAudit: boolean;
  row: number;
}

/** sessionStorage when there is one that works (a sandboxed page may throw on access). */
function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

/** The store as this module reads it: its state and its changes. */
interface Store {
  getState(): AppState;
  subscribe(listener: (s: AppState) => void): () => void;
}

/**
 * Keeps the cursor's row with the selection it shows (null: the active leaf), for a reload of
 * this tab: the tree opens a reload on that row. Returns what stops it.
 */
export function keepCursorRow(store: Store): () => void {
  let last = '';
  const keep = (s: AppState): void => {
    if (!s.sessionKey || s.selectedRow === null) return;
    const kept: OpenedRow = { key: s.sessionKey, leaf: s.leaf, foldAudit: s.foldAudit, row: s.selectedRow };
    const text = JSON.stringify(kept);
    if (text === last) return;
    last = text;
    try {
      storage()?.setItem(STORE_KEY, text);
    } catch {
      // (storage full or refused: a reload then asks its rows after the open, as without)
    }
  };
  keep(store.getState());
  return store.subscribe(keep);
}

/** The row read at the page's start (readKeptRow), taken by the page's early asks. */
let readAtStart: { row: OpenedRow | null } | null = null;

/**
 * Reads the kept row once, at the page's start, before the socket opens. A page's first storage
 * access is slow in Chromium; made here, it is not made in the task that takes a session's open
 * (where the cursor's row is first kept) nor in the one that asks a reload's rows.
 */
export function readKeptRow(): void {
  readAtStart = { row: openedRow() };
  readTreeViewport();
}

function openedRow(): OpenedRow | null {
  try {
    const v = JSON.parse(storage()?.getItem(STORE_KEY) ?? 'null') as Partial<OpenedRow> | null;
    if (!v || typeof v.key !== 'string' || typeof v.foldAudit !== 'boolean') return null;
    if (v.leaf !== null && typeof v.leaf !== 'string') return null;
    if (typeof v.row !== 'number' || !Number.isSafeInteger(v.row) || v.row < 0) return null;
    return { key: v.key, leaf: v.leaf, foldAudit: v.foldAudit, row: v.row };
  } catch {
    return null;
  }
}

/**
 * The page of tree rows this tab kept for a reload on `st`'s session and selection (its start),
 * or null: the tree opens on that row. Read once at the page's start (readKeptRow).
 */
export function keptRowPage(st: AppState, key: string): number | null {
  const kept = readAtStart ? readAtStart.row : openedRow();
  readAtStart = null;
  if (!kept || kept.key !== key || kept.leaf !== st.leaf || kept.foldAudit !== st.foldAudit) return null;
  return Math.floor(kept.row / TREE_PAGE) * TREE_PAGE;
}

/**
 * A page opened on a session (a reload, a link) asks, with the open, what it will show first:
 * the row of the leaf it names (the controller asks it before the tree opens), the page of tree
 * rows of the cursor when this tab last showed the same selection (`keptPage`, keptRowPage: the
 * tree opens on it), and the leaf view the loader will ask once the session is open. Each would
 * otherwise leave only once the open's answer came back. The loader and the tree take these
 * answers when they ask exactly the same; anything else cancels them (early-asks.ts). (Without a
 * kept row or a named leaf, the controller asks the page of the active leaf, as for a click.)
 */
export function askOpenEarly(askEarly: AskEarly, st: AppState, key: string, keptPage: number | null): void {
  // A named leaf's row (the open only brings the active leaf's): the tree opens on it.
  if (st.leaf !== null) askEarly('findRow', { key, id: st.leaf, foldAudit: st.foldAudit });
  if (keptPage !== null) askEarly('getTreeRows', { key, start: keptPage, count: TREE_PAGE, foldAudit: st.foldAudit });
  askEarly('getLeafView', leafViewRequestOf(st, key, pagedOf(st)));
}

/** The tree's page holding the active leaf, asked with a session's open (askActiveLeafPage). */
export interface EarlyTreePage {
  /** `api` whose first `getTreeRows` takes the early page if it asks that very page, and drops it otherwise. */
  api: Api;
  /** Drops the page unless it was taken: its request is cancelled. */
  drop(): void;
}

/** The request for the tree's page holding the active leaf (the backend finds its start). */
export function activeLeafPageRequest(key: SessionKey, foldAudit: boolean): ApiRequest<'getTreeRows'> {
  return { key, start: 0, count: TREE_PAGE, foldAudit, holding: 'activeLeaf' };
}

/**
 * A click in the library opens the session on its active leaf, whose row only the open's answer
 * tells: the tree's page of it would leave one round trip after the open. Asked with the open
 * instead (`holding`: the backend finds the page), it is taken by the tree's first request for
 * tree rows when that is exactly this page (same session, folding and size, and the start the
 * answer names); any other first request drops it and is sent as asked. An early page answers
 * one request at most, never a different one, and no request is sent twice.
 */
export function askActiveLeafPage(api: Api, key: SessionKey, foldAudit: boolean): EarlyTreePage {
  const abort = new AbortController();
  const asked = api.getTreeRows(activeLeafPageRequest(key, foldAudit), { signal: abort.signal });
  asked.catch(() => undefined); // (dropped or failed: the tree's own request decides)
  let pending = true;
  const drop = (): void => {
    if (!pending) return;
    pending = false;
    abort.abort();
  };
  const getTreeRows: Api['getTreeRows'] = (req, opts) => {
    if (!pending) return api.getTreeRows(req, opts);
    pending = false;
    const signal = opts?.signal;
    const same = req.key === key && req.count === TREE_PAGE && req.foldAudit === foldAudit && req.holding === undefined;
    if (!same || signal?.aborted) {
      abort.abort();
      return api.getTreeRows(req, opts);
    }
    signal?.addEventListener('abort', () => abort.abort(), { once: true });
    return asked.then(
      // Another page (the session changed between the two answers): the tree's own is asked.
      (page): TreeRowsResult | Promise<TreeRowsResult> =>
        page.start === req.start
          ? { total: page.total, laneCount: page.laneCount, rows: page.rows }
          : api.getTreeRows(req, opts),
      (err: unknown) => {
        if (signal?.aborted) throw err;
        return api.getTreeRows(req, opts);
      },
    );
  };
  return { api: { ...api, getTreeRows }, drop };
}
