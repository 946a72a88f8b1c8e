/**
 * What followers of a session and subscribers of the library hear, and when: a file of the home
 * changed or went away, a first read in steps read on, a session was read again whole, its
 * deferred hash check ended, a lock was taken or released. The backend (explorer-backend.ts)
 * calls these; each pushes the events its change makes, through `Subscriptions`.
 */
import { ownTable } from '../../shared/own-key';
import type { ApiEvent, SessionGeneration, SessionInfo, SessionKey, SessionSummary } from '../../shared/api';
import { LedgerChangedError } from '../core/ledger';
import type { HomeChange } from '../library/home-watcher';
import type { OpenSession, RereadReason, SessionCache } from '../library/session-cache';
import type { SessionLibrary } from '../library/session-library';
import { ApiError, type ApiClient } from './api-backend';
import { sessionDelta } from './session-delta';
import { branchPointCount, keepEntryFigures, readingProgress, sessionInfo } from './session-info';
import type { Subscriptions } from './subscriptions';

/** What followers are told when a session was read again whole, by why. */
const REREAD_WHY: Record<RereadReason | 'shrunk' | 'replaced', string> = ownTable({
  shrunk: 'the file shrank: append-only was broken, so it was read again',
  replaced: 'the file was replaced by another file, so it was read again',
  rewritten: 'bytes already read changed (the file was rewritten in place), so it was read again',
  kept: 'the kept index did not match the file, so the file was read again whole',
});

/** A background update failed: say so on stderr and keep serving (a watcher must never crash the app). */
export function logFailure(e: unknown): void {
  console.warn(`vak-explorer: background update failed: ${e instanceof Error ? e.message : String(e)}`);
}

/** Whether a library row changed in a way the UI shows. */
function differs(a: SessionSummary | undefined, b: SessionSummary): boolean {
  return (
    !a ||
    a.sizeBytes !== b.sizeBytes ||
    a.mtimeMs !== b.mtimeMs ||
    a.lock !== b.lock ||
    a.unreadable !== b.unreadable ||
    a.entries !== b.entries ||
    a.warnings !== b.warnings ||
    a.title !== b.title
  );
}

/** What the news needs of the backend it tells of. */
export interface NewsHost {
  readonly cache: SessionCache;
  readonly library: SessionLibrary;
  readonly subs: Subscriptions;
  closed(): boolean;
  /** A watcher tells of changes on disk (without one, polling lists the home again). */
  watching(): boolean;
}

export class SessionNews {
  private readonly cache: SessionCache;
  private readonly library: SessionLibrary;
  private readonly subs: Subscriptions;

  constructor(private readonly host: NewsHost) {
    this.cache = host.cache;
    this.library = host.library;
    this.subs = host.subs;
  }

  /** The library row of an open session, with the exact figures its ledger knows. */
  summaryOf(s: OpenSession): SessionSummary {
    const ix = s.ledger.index;
    // While a first open reads in steps, the library row keeps its figures from the listing.
    if (!s.reading)
      this.library.setExact(s.key, {
        entries: ix.count,
        branches: branchPointCount(s),
        warnings: s.ledger.warningsSoFar().length,
        sizeBytes: s.ledger.bytesRead,
      });
    const summary = this.library.get(s.key) ?? this.library.refresh(s.key);
    if (!summary) throw new ApiError('not_found', `no session ${s.key} in this home`);
    return summary;
  }

  /**
   * What `openSession` answers for `s` at the end of its first read, with the library row as
   * subscribers last heard it: the row's exact counts are set (and pushed) after the event, as
   * when the follower asked openSession for them, so the hash check's count is still pushed.
   */
  private infoAtReadEnd(s: OpenSession): SessionInfo {
    const row = this.library.get(s.key);
    return row ? sessionInfo(s, row, this.library) : this.infoOf(s);
  }

  /**
   * What a new library subscriber hears at once: the rows of the open sessions, whose figures
   * (exact counts, a hash check's warnings) come from their ledgers and were pushed only to those
   * subscribed then. A listing answered before they changed, then a subscription made after, would
   * keep the older figures for good; told now, the subscriber ends on the current rows whichever of
   * the listing, the subscription and a session's read comes first (one channel keeps them in order).
   */
  libraryJoined(client: ApiClient): void {
    const changed: SessionSummary[] = [];
    for (const key of this.cache.keys()) {
      const row = this.library.get(key);
      if (row) changed.push(row);
    }
    if (changed.length > 0) client.push({ type: 'library', changed, removed: [] });
  }

  /**
   * A follower subscribes naming what its open showed (`since`: that open came by another way,
   * serve mode's early answers). When it missed only steps of a first read still under way, it
   * hears them in the delta of the next step, which starts where it stands: that entry count is
   * returned (its subscription keeps it). When it missed anything else (an append, a reload, the
   * read's end), it is told at once, as a 'reloaded' event; when nothing, nothing.
   */
  joined(client: ApiClient, s: OpenSession, since: SessionGeneration): number | undefined {
    const same = since.generation === s.readingId;
    // Steps still to be told (the last one, which ends the read, among them).
    const stepping = s.stepsUnannounced;
    // The next event tells what came after `announced`: a follower that stands there (or past it,
    // its open answered while a step read on) misses nothing.
    if (same && since.reading === stepping && since.entryCount >= s.announced) return undefined;
    if (same && since.reading && stepping) return since.entryCount;
    client.push(this.sessionEvent(s, 'reloaded', [], 'the session changed after the page first asked for it'));
    return undefined;
  }

  /** What `openSession` answers for `s` now. */
  infoOf(s: OpenSession): SessionInfo {
    keepEntryFigures(s); // first: the library row's branch points are one of them
    return sessionInfo(s, this.summaryOf(s), this.library);
  }

  /**
   * A file of the home changed or went away: update the open session, then the library. `cause`:
   * `event`, the watcher saw the file change (one that did not grow it is checked for a rewrite
   * in place); `own`, this backend appended to it (a branch); `step`, no file changed, a first read
   * in steps read on (the library row is not read from disk again for it: a stat, the file's head
   * and the kernel's lock table, each of ~25 steps of a 100 MB first open; a change on disk
   * meanwhile comes from the watcher as well).
   */
  async homeChanged(c: HomeChange, cause: 'event' | 'own' | 'step' = 'event'): Promise<void> {
    if (this.host.closed()) return;
    const key = c.key;
    const step = cause === 'step';
    const open = this.cache.get(key);
    if (open) {
      let change;
      try {
        change = await this.cache.refresh(key, cause === 'event');
      } catch (e) {
        change = null;
        this.subs.pushSession(key, this.sessionEvent(open, 'reloaded', [], `cannot read: ${(e as Error).message}`));
      }
      if (change?.kind === 'appended') {
        const { step: stepOf, firstNew, newEntries } = change;
        let info: SessionInfo | undefined;
        // The event for the entries from `from` on: a follower that missed steps gets it from where it stands.
        const eventFrom = (from: number): ApiEvent => {
          // A step of a first read names no ids (thousands of them, and no one waits for one).
          const ids = stepOf ? [] : open.ledger.index.ids.slice(from, firstNew + newEntries);
          const e = this.sessionEvent(open, 'appended', ids);
          if (e.type !== 'session') return e;
          const delta = sessionDelta(open, from, stepOf !== undefined);
          // The step that reads to the end brings the session's whole figures: the follower
          // that waited for them does not ask openSession again.
          if (stepOf === 'last' && this.subs.hasSession(key)) info ??= this.infoAtReadEnd(open);
          return { ...e, delta, ...(stepOf ? { reading: readingProgress(open) } : {}), ...(info ? { info } : {}) };
        };
        try {
          this.subs.pushSession(key, eventFrom(firstNew), eventFrom);
        } catch (x) {
          // A row of the delta read back a line that changed: read again whole (followers hear `reloaded`).
          if (!(x instanceof LedgerChangedError)) throw x;
          await this.cache.rereadChanged(x.ledger);
        }
      } else if (change?.kind === 'reloaded') {
        this.subs.pushSession(key, this.sessionEvent(open, 'reloaded', [], REREAD_WHY[change.reason]));
      } else if (change?.kind === 'removed') {
        const gone: ApiEvent = { type: 'session', key, change: 'removed', entryCount: 0, activeLeaf: null, newIds: [] };
        this.subs.pushSession(key, gone);
      }
    }
    const before = this.library.get(key);
    const after = c.type === 'removed' ? null : step && before ? before : this.library.refresh(key);
    if (!after) {
      this.library.forget(key);
      if (c.type === 'removed' && open) this.cache.drop(key);
      if (before) this.subs.pushLibrary({ type: 'library', changed: [], removed: [key] });
      return;
    }
    const live = this.cache.get(key);
    const shown = live ? this.summaryOf(live) : after;
    if (differs(before, shown)) this.subs.pushLibrary({ type: 'library', changed: [shown], removed: [] });
  }

  /** A session was read again whole outside a refresh (SessionCache.onReread): followers and the library hear of it. */
  reread(key: SessionKey, reason: RereadReason): void {
    if (this.host.closed()) return;
    const s = this.cache.peek(key);
    if (!s) return;
    this.subs.pushSession(key, this.sessionEvent(s, 'reloaded', [], REREAD_WHY[reason]));
    const before = this.library.get(key);
    const shown = this.summaryOf(s);
    if (differs(before, shown)) this.subs.pushLibrary({ type: 'library', changed: [shown], removed: [] });
  }

  /**
   * A first read's deferred hash check is done: followers hear what it found (with mismatches,
   * their warning count and rows' marks change: they ask again), and the library row its count.
   */
  hashesChecked(key: SessionKey, mismatches: number): void {
    if (this.host.closed()) return;
    const s = this.cache.peek(key);
    if (!s) return;
    const reason =
      mismatches === 0
        ? 'hash chain checked: every entry links to the line before it'
        : `hash chain checked: ${mismatches} ${mismatches === 1 ? 'entry does' : 'entries do'} not link to the line before`;
    const e = this.sessionEvent(s, 'checked', [], reason);
    if (e.type === 'session') this.subs.pushSession(key, { ...e, hashMismatches: mismatches });
    const before = this.library.get(key);
    const shown = this.summaryOf(s);
    if (differs(before, shown)) this.subs.pushLibrary({ type: 'library', changed: [shown], removed: [] });
  }

  private sessionEvent(
    s: OpenSession,
    change: 'appended' | 'reloaded' | 'removed' | 'checked',
    newIds: string[],
    reason?: string,
  ): ApiEvent {
    const ix = s.ledger.index;
    const e: ApiEvent = {
      type: 'session',
      key: s.key,
      change,
      entryCount: ix.count,
      activeLeaf: ix.count > 0 ? ix.ids[ix.activeLeaf] : null,
      newIds,
    };
    return reason === undefined ? e : { ...e, reason };
  }

  /**
   * Library subscribers learn of locks taken or released: one read of /proc/locks and one
   * stat per session, no file opened (a lock changes no byte). Without a watcher, a full
   * listing also finds what changed on disk.
   */
  async pollLocks(): Promise<void> {
    if (this.host.closed() || !this.subs.hasLibrary()) return;
    if (this.host.watching()) {
      const changed = this.library.refreshLocks();
      if (changed.length > 0) this.subs.pushLibrary({ type: 'library', changed, removed: [] });
      return;
    }
    const before = new Map(this.library.all().map((s) => [s.key, s]));
    const now = await this.library.list();
    const changed = now.filter((s) => differs(before.get(s.key), s));
    const keys = new Set(now.map((s) => s.key));
    const removed = [...before.keys()].filter((k) => !keys.has(k));
    if (changed.length > 0 || removed.length > 0) this.subs.pushLibrary({ type: 'library', changed, removed });
  }
}
