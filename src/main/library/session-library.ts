import { statSync } from 'node:fs';
import type { LockState, SessionKey, SessionSummary } from '../../shared/api';
import { scanHome, sessionFileOf, type SessionFile } from '../core/home';
import { readLockTable, type LockTable } from '../core/proc-locks';
import type { OpenedFiles } from './opened-files';
import { readSessionSummary, type SummaryOptions } from './session-summary';

/** Figures a fully read (opened) session knows better than its head and tail. */
export interface ExactCounts {
  entries: number;
  branches: number;
  warnings: number;
  sizeBytes: number;
}

/**
 * All sessions of a home, as library rows. Summaries are cached by (size, mtime):
 * a listing reads the heads and tails of new or changed files only, and looks up every
 * file's lock state again (a lock changes no byte of the file) in the kernel's lock
 * table, read once per listing: no lock is ever taken or probed. Parent and child
 * links are resolved by session id across agents.
 */
export class SessionLibrary {
  private summaries = new Map<SessionKey, SessionSummary>();
  private exact = new Map<SessionKey, ExactCounts>();
  /** session id → keys holding it (one per agent, normally one in all). */
  private byId = new Map<string, Set<SessionKey>>();
  /** Bytes of ledger files read for summaries since the library was made. */
  bytesRead = 0;

  constructor(
    readonly home: string,
    private readonly opts: SummaryOptions = {},
    /** Files opened by path: listed beside the home's sessions (opened-files.ts). */
    private readonly opened: OpenedFiles | null = null,
  ) {}

  /** The SessionFile of a key: under the home, or an opened file's. */
  private fileOf(key: SessionKey): SessionFile | null {
    return this.opened ? this.opened.fileOf(this.home, key) : sessionFileOf(this.home, key);
  }

  /** Scans the home and returns every session's summary (sorted by key). */
  async list(): Promise<SessionSummary[]> {
    const files = scanHome(this.home);
    for (const f of this.opened?.all() ?? []) {
      const file = this.fileOf(f.key);
      if (file) files.push(file);
    }
    const locks = readLockTable();
    const seen = new Set<SessionKey>();
    let k = 0;
    for (const f of files) {
      seen.add(f.key);
      this.load(f, locks);
      // Keep the event loop responsive on a home with thousands of sessions.
      if (++k % 256 === 0) await new Promise((r) => setImmediate(r));
    }
    for (const key of [...this.summaries.keys()]) if (!seen.has(key)) this.forget(key);
    return this.all();
  }

  /** Every known summary, parents resolved, sorted by key. */
  all(): SessionSummary[] {
    return [...this.summaries]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, s]) => this.resolved(key, s));
  }

  /** One summary as known now (no file access), parents resolved and exact counts applied. */
  get(key: SessionKey): SessionSummary | undefined {
    const s = this.summaries.get(key);
    return s ? this.resolved(key, s) : undefined;
  }

  /** A stored summary with its parent's key resolved and the exact counts of an opened session applied. */
  private resolved(key: SessionKey, s: SessionSummary): SessionSummary {
    const out = { ...s };
    if (s.parentSession) out.parentSession = { ...s.parentSession, key: this.keyOf(s.parentSession.sessionId) };
    const x = this.exact.get(key);
    if (x && x.sizeBytes === s.sizeBytes) {
      out.entries = x.entries;
      out.entriesExact = true;
      out.branches = x.branches;
      out.warnings = x.warnings;
    }
    return out;
  }

  /** Re-reads one session (after a change); null when it is gone. */
  refresh(key: SessionKey): SessionSummary | null {
    const f = this.fileOf(key);
    const s = f ? this.load(f, readLockTable()) : null;
    if (!s) {
      this.forget(key);
      return null;
    }
    return this.resolved(key, s);
  }

  /**
   * Looks up every known session's lock state again, in one read of the kernel's lock
   * table, with one stat per file: no file is opened, no byte read, no lock touched.
   * Returns the rows whose state changed (parents resolved, as `get`).
   */
  refreshLocks(locks: LockTable | null = readLockTable()): SessionSummary[] {
    const changed: SessionSummary[] = [];
    for (const [key, s] of this.summaries) {
      if (s.unreadable !== null) continue;
      let lock: LockState = 'unknown';
      if (locks) {
        const file = this.fileOf(key);
        if (!file) continue;
        try {
          const st = statSync(file.path, { bigint: true });
          lock = locks.stateOf(st.dev, st.ino);
        } catch {
          continue; // gone: the watcher or the next listing says so
        }
      }
      if (lock === s.lock) continue;
      const now = { ...s, lock };
      this.summaries.set(key, now);
      changed.push(this.resolved(key, now));
    }
    return changed;
  }

  /** Records what an opened ledger knows exactly (entries, branches, warnings). */
  setExact(key: SessionKey, counts: ExactCounts): void {
    this.exact.set(key, counts);
  }

  forget(key: SessionKey): void {
    const s = this.summaries.get(key);
    if (s) this.byId.get(s.sessionId)?.delete(key);
    this.summaries.delete(key);
    this.exact.delete(key);
  }

  /** The key of a session id, preferring one of `agent` when several agents hold that id. */
  keyOf(sessionId: string, agent?: string): SessionKey | null {
    const keys = [...(this.byId.get(sessionId) ?? [])].sort();
    return keys.find((k) => agent === undefined || this.summaries.get(k)?.agent === agent) ?? keys[0] ?? null;
  }

  /** Reads (or revalidates) one file's summary and stores it; null when the file is gone. */
  private load(f: SessionFile, locks: LockTable | null): SessionSummary | null {
    const r = readSessionSummary(f, this.opts, this.summaries.get(f.key), locks);
    if (!r) return null;
    this.bytesRead += r.bytesRead;
    this.summaries.set(f.key, r.summary);
    let keys = this.byId.get(f.sessionId);
    if (!keys) this.byId.set(f.sessionId, (keys = new Set()));
    keys.add(f.key);
    return r.summary;
  }
}
