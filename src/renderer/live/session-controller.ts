import type { Api, ApiEvent, SessionDelta, SessionInfo, SessionKey } from '../../shared/api';
import { describeError } from '../api/api-methods';
import { currentTreeSource, dropSessionSources, openTreeSource } from '../data/session-sources';
import type { AppState } from '../store/app-store';
import { forgetSessionNav, jumpToEntry, knowRowOf, rowNumberOf } from '../tree/tree-nav';
import { askActiveLeafPage, type EarlyTreePage } from './open-early';
import { subscribeUntilStopped } from './subscription';

type SessionEvent = Extract<ApiEvent, { type: 'session' }>;

/**
 * Puts an append's rows in the open tree source: the new rows (or, past MAX_DELTA_ROWS, none:
 * they are fetched when shown) and the rows a new lane line passes through fetched again.
 */
function patchTree(delta: SessionDelta): void {
  const tree = currentTreeSource();
  if (!tree) return;
  const folded = tree.foldAudit;
  const total = folded ? delta.foldedRowCount : delta.rowCount;
  const first = folded ? delta.foldedFirstRow : delta.firstNewIndex;
  const rows = folded ? delta.foldedRows : delta.rows;
  const redraw = folded ? delta.redrawFolded : delta.redraw;
  // Rows that did not come with the event are fetched again when shown (one range: the hull).
  const stale = rows ? redraw : { start: Math.min(redraw.start, first), end: Math.max(redraw.end, total) };
  tree.patch(total, first, rows ?? [], stale);
  tree.meta = Math.max(1, delta.laneCount);
}

/** The row of `leaf` that `info` brings, when `leaf` is its active leaf. */
function activeRowOf(info: SessionInfo | undefined, leaf: string, foldAudit: boolean): number | undefined {
  const rows = info && info.activeLeaf === leaf ? info.activeLeafRows : undefined;
  return rows && (foldAudit ? rows.foldedRow : rows.row);
}

/** What was asked with a session's open (SessionController.start). */
export interface StartOptions {
  /** The tree's page of the active leaf is asked with the open (a session chosen in the library). */
  activeLeafPage?: boolean;
  /** The page asked the leaf view itself, with the open (a page opened on a session, open-early.ts). */
  leafViewAsked?: boolean;
}

/**
 * The open session's life in the renderer, as one plain object: it opens the session, subscribes
 * to it and applies its events — the open, a first read's steps and end, appends with their
 * deltas, reloads, a hash check, removal — strictly one after another, each to its end (its own
 * requests answered) before the next starts. Applied by handlers that could interleave, a reload's
 * answer could land after a later append's patch and undo it. Progress alone is applied on arrival
 * (it only moves a bar), until the read's end is seen.
 */
export class SessionController {
  private live = true;
  private tail: Promise<void> = Promise.resolve();
  private readEnded = false;
  private stops: (() => void)[] = [];
  /** The tree's page of the active leaf, asked with the open (start's `activeLeafPage`). */
  private earlyPage: EarlyTreePage | null = null;
  /** The page asked its leaf view itself (start's `leafViewAsked`). */
  private leafViewAsked = false;

  constructor(
    private readonly api: Api,
    readonly key: SessionKey,
    private readonly st: () => AppState,
  ) {}

  /**
   * Opens the session. `activeLeafPage` (a session chosen in the library): the tree's page of the
   * active leaf is asked with the open, once the input's handler has run and shows that the session
   * opens on its active leaf (no leaf named), instead of once the open's answer tells its row.
   * `leafViewAsked` (a page opened on a session, open-early.ts): the leaf view was asked with the
   * open, so the store need not hear of the open before the tree's first rows are here.
   */
  start(opts: StartOptions = {}): void {
    this.leafViewAsked = opts.leafViewAsked ?? false;
    dropSessionSources();
    forgetSessionNav();
    this.st().setProgress(null);
    this.stops.push(this.api.onEvent((e) => this.onEvent(e)));
    this.stops.push(subscribeUntilStopped(this.api, { topic: 'session', key: this.key }));
    // Asked here, in the caller's task (a click's, before the render it causes), not when the
    // queue reaches it: the queue only orders what is applied.
    const opened = this.api.openSession({ key: this.key });
    opened.catch(() => undefined); // (its failure is reported where it is applied)
    this.enqueue(() => this.open(opened));
    // In a microtask: still in the input's task, after it has named a leaf or not (openSessionAt).
    if (opts.activeLeafPage)
      queueMicrotask(() => {
        const st = this.st();
        if (this.live && st.sessionKey === this.key && st.leaf === null)
          this.earlyPage = askActiveLeafPage(this.api, this.key, st.foldAudit);
      });
  }

  /** False once stopped. */
  get running(): boolean {
    return this.live;
  }

  /** Nothing more is applied, nothing asked; answers still on the way are dropped. */
  stop(): void {
    this.live = false;
    this.earlyPage?.drop();
    for (const s of this.stops.splice(0)) s();
  }

  /** Resolves once everything queued so far has been applied (tests). */
  settled(): Promise<void> {
    return this.tail;
  }

  private onEvent(e: ApiEvent): void {
    if (!this.live) return;
    if (e.type === 'progress' && e.key === this.key) {
      // Not after the read's end, nor once the open said it was read whole (events may come
      // after the reply on a transport that does not keep them in order).
      if (!this.readEnded && this.st().sessionInfo?.reading !== null) {
        this.st().setProgress({ bytesRead: e.bytesRead, bytesTotal: e.bytesTotal, entriesRead: e.entriesRead });
      }
    } else if (e.type === 'session' && e.key === this.key) {
      if (e.reading === null) this.readEnded = true;
      this.enqueue(() => this.apply(e));
    }
  }

  private enqueue(task: () => Promise<void>): void {
    this.tail = this.tail
      .then(() => (this.live ? task() : undefined))
      .catch((err: unknown) => {
        if (this.live) this.st().sessionFailed(describeError(err));
      });
  }

  private async open(opened: Promise<SessionInfo>): Promise<void> {
    try {
      await this.openOn(await opened);
    } finally {
      // Not taken by the tree's first page (it opened elsewhere, or not at all): cancelled.
      this.earlyPage?.drop();
      this.earlyPage = null;
    }
  }

  private async openOn(info: SessionInfo): Promise<void> {
    if (!this.live) return;
    // The tree's first page takes the early one when it is that page (open-early.ts).
    const treeApi = this.earlyPage?.api ?? this.api;
    // The tree opens on the selected leaf (the active one unless the URL names another), in view.
    // While a first read is under way the active leaf is not known yet (the read's end places it):
    // the tree shows its first rows meanwhile.
    const named = this.st().leaf;
    const leaf = named ?? (info.reading ? null : info.activeLeaf);
    const foldAudit = this.st().foldAudit;
    let r = leaf !== null ? activeRowOf(info, leaf, foldAudit) : undefined;
    let asked = false;
    if (named !== null && r === undefined && !info.reading) {
      asked = true;
      // A leaf the URL names (a reload after a click): its row is asked before the tree opens
      // (a page opened on it asked with the open, open-early.ts), so the tree opens on that row
      // instead of asking the rows at the top first and then the leaf's page. Not while a first
      // read runs: the leaf may lie past what was read, and the tree shows its first rows meanwhile.
      r = await this.api.findRow({ key: this.key, id: named, foldAudit }).then(
        (a) => a.row,
        () => undefined, // not in the session: the panes say so (unknown-leaf.tsx)
      );
      if (!this.live) return;
      // Another selection or folding meanwhile: the cursor follows that (use-cursor-follows-leaf.ts).
      if (this.st().leaf !== named || this.st().foldAudit !== foldAudit) r = undefined;
    }
    if (leaf && r !== undefined) {
      // The row is known: its page of rows is asked now, before the store hears of the open
      // (which asks the leaf view), so the backend answers the rows first; the tree then opens
      // on that row and never asks for the rows at the top.
      const waited = this.firstRows(treeApi, info, foldAudit, r);
      if (waited && !(await waited)) return;
      this.st().sessionOpened(info);
      // Another selection or folding while the rows came: the cursor follows that.
      if (this.st().leaf !== named || this.st().foldAudit !== foldAudit) return;
      knowRowOf(leaf, r);
      this.st().placeCursor(r, true);
      return;
    }
    if (!leaf && info.reading) {
      // A first read: the tree opens on its top rows (the cursor waits for the read's end), so
      // their page is asked now, before the store hears of the open and asks the leaf view, not
      // once the tree has rendered and measured itself.
      const waited = this.firstRows(treeApi, info, foldAudit, 0);
      if (waited && !(await waited)) return;
    }
    this.st().sessionOpened(info);
    if (!leaf || asked) return;
    const row = await rowNumberOf(this.api, leaf).catch(() => undefined);
    if (row !== undefined && this.live) this.st().placeCursor(row, true);
  }

  /**
   * Opens the tree's source and asks its first page, the one holding `row`. When the page asked its
   * leaf view itself, returns the wait for that page (false once stopped): the store then hears of
   * the open with the rows here, and React draws the session and its first rows in one pass instead
   * of two. Otherwise null, at once: the store hears of the open in this task (that asks the leaf view).
   */
  private firstRows(api: Api, info: SessionInfo, foldAudit: boolean, row: number): Promise<boolean> | null {
    const source = openTreeSource(api, this.key, foldAudit, foldAudit ? info.foldedRowCount : info.rowCount);
    if (!this.leafViewAsked) {
      source.ensure(row, row);
      return null;
    }
    return source.load(row).then(
      () => this.live,
      () => this.live, // (a failure shows in the tree, as its error)
    );
  }

  private async apply(e: SessionEvent): Promise<void> {
    const st = this.st;
    if (e.change === 'removed') st().sessionFailed('This session file was removed.');
    // The hash check of a first read: found nothing, only its mark goes; else warnings and rows are asked again.
    else if (e.change === 'checked' && e.hashMismatches === 0) st().hashesChecked();
    // An append that carries its delta is patched in: tree rows and counts from the event, no re-open.
    else if (e.change === 'appended' && e.delta && st().sessionInfo) await this.patch(e, e.delta);
    else await this.refresh(e.newIds, true);
  }

  /**
   * Asks for the session's figures again. `rowsChanged`: a reload or a check that found
   * something, so every row is fetched again; the end of a first read changes no row the steps'
   * deltas did not already bring.
   */
  private async refresh(newIds: string[], rowsChanged: boolean, given?: SessionInfo): Promise<void> {
    const st = this.st;
    const info = given ?? (await this.api.openSession({ key: this.key }));
    if (!this.live) return;
    if (rowsChanged) st().sessionChanged(info);
    else st().sessionOpened(info);
    // Told in the same task as the store: the tree's cursor effect, run once React renders the
    // new figures, finds the active leaf's row known instead of asking findRow for it.
    const known = info.activeLeaf ? activeRowOf(info, info.activeLeaf, st().foldAudit) : undefined;
    if (info.activeLeaf && known !== undefined) knowRowOf(info.activeLeaf, known);
    const pending = st().takePendingSelect(newIds);
    if (pending) {
      await jumpToEntry(this.api, pending);
    } else if (st().follow && info.activeLeaf) {
      await jumpToEntry(this.api, info.activeLeaf);
    } else if (rowsChanged) {
      const leaf = st().leaf;
      if (!leaf) return;
      // Rows may have moved (folding, lanes): keep the cursor on the selected entry.
      const r = await rowNumberOf(this.api, leaf).catch(() => undefined);
      if (r !== undefined && this.live) st().placeCursor(r);
    }
  }

  /**
   * Puts the cursor on `leaf`, in view, unless it is there or a key moved it meanwhile: a leaf
   * chosen while the read ran (a search hit, a link) may lie past what was read then, so its row
   * is only known at the read's end.
   */
  private async cursorTo(leaf: string): Promise<void> {
    const st = this.st;
    const from = st().selectedRow;
    if (from !== null && currentTreeSource()?.get(from)?.id === leaf) return;
    const r = await rowNumberOf(this.api, leaf).catch(() => undefined);
    if (r !== undefined && this.live && st().leaf === leaf && st().selectedRow === from) st().placeCursor(r, true);
  }

  private async patch(e: SessionEvent, delta: SessionDelta): Promise<void> {
    const st = this.st;
    patchTree(delta);
    if (e.reading !== undefined) st().setProgress(e.reading);
    st().sessionAppended({
      entryCount: e.entryCount,
      activeLeaf: e.activeLeaf,
      warningCount: delta.warningCount,
      rowCount: delta.rowCount,
      foldedRowCount: delta.foldedRowCount,
      laneCount: delta.laneCount,
      leaves: delta.leafCount,
      branchPoints: (st().sessionInfo?.branchPoints ?? 0) + delta.branchPointsAdded,
      usage: delta.usage,
      ...(delta.work ? { work: delta.work } : {}),
    });
    if (e.reading === null) {
      // A first open read in steps has read to the end: its figures (usage, work, links) are
      // whole now, and the active leaf is the file's; the cursor goes there unless one was chosen.
      // The event brings them (older backends did not: then they are asked).
      const chosen = st().leaf;
      await this.refresh(e.newIds, false, e.info);
      if (!chosen && this.live && !st().follow && e.activeLeaf) {
        const r =
          activeRowOf(e.info, e.activeLeaf, st().foldAudit) ??
          (await rowNumberOf(this.api, e.activeLeaf).catch(() => undefined));
        if (r !== undefined && this.live && !st().leaf) st().placeCursor(r, true);
      } else if (chosen && this.live) await this.cursorTo(chosen);
      return;
    }
    const pending = st().takePendingSelect(e.newIds);
    if (pending) await jumpToEntry(this.api, pending);
    else if (st().follow && e.activeLeaf) await jumpToEntry(this.api, e.activeLeaf);
    // Otherwise the selection stays, and so does its row: appended rows never move earlier ones.
  }
}
