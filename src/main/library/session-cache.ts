import { statSync } from 'node:fs';
import type { SessionKey } from '../../shared/api';
import { sessionPath } from '../core/home';
import { Ledger, type ReadProgress } from '../core/ledger';
import { TreeLayout } from '../core/tree-layout';

/** One opened session: its ledger (index read once), its tree layout, and its file identity. */
export interface OpenSession {
  key: SessionKey;
  path: string;
  ledger: Ledger;
  layout: TreeLayout;
  /** Bumped on every change, so derived views (warning lines) know when to recompute. */
  revision: number;
  /** Inode at open: a file replaced by rename keeps our descriptor on the old one. */
  ino: number;
}

/** What a refresh of an open session found. */
export type SessionChange =
  | { kind: 'unchanged' }
  | { kind: 'appended'; firstNew: number; newEntries: number; bytes: number }
  | { kind: 'reloaded'; reason: 'shrunk' | 'rewritten' | 'replaced' }
  | { kind: 'removed' };

/**
 * Open ledgers by key: an LRU of a few, plus every session someone follows
 * (pinned). Opening a big file reports progress; refreshes of one session run
 * one at a time, and an append is read as its new bytes only (`Ledger.refresh`).
 */
export class SessionCache {
  private open = new Map<SessionKey, OpenSession>();
  private opening = new Map<SessionKey, Promise<OpenSession>>();
  private pins = new Map<SessionKey, number>();
  private queue = new Map<SessionKey, Promise<unknown>>();

  constructor(
    readonly home: string,
    private readonly max = 4,
  ) {}

  /** The open session, if it is open (marks it recently used). */
  get(key: SessionKey): OpenSession | undefined {
    const s = this.open.get(key);
    if (s) {
      this.open.delete(key);
      this.open.set(key, s);
    }
    return s;
  }

  /** Opens (or returns) a session; rejects with the file system's error when it cannot be read. */
  async acquire(key: SessionKey, onProgress?: (p: ReadProgress) => void): Promise<OpenSession> {
    const s = this.get(key);
    if (s) return s;
    let p = this.opening.get(key);
    if (!p) {
      p = this.load(key, onProgress).finally(() => this.opening.delete(key));
      this.opening.set(key, p);
    }
    return p;
  }

  private async load(key: SessionKey, onProgress?: (p: ReadProgress) => void): Promise<OpenSession> {
    const path = sessionPath(this.home, key);
    const ino = statSync(path).ino;
    const ledger = await Ledger.open(path, { onProgress });
    const s: OpenSession = { key, path, ledger, layout: TreeLayout.build(ledger.index), revision: 0, ino };
    this.open.set(key, s);
    this.evict();
    return s;
  }

  /** Keeps a session open while someone follows it. */
  pin(key: SessionKey): void {
    this.pins.set(key, (this.pins.get(key) ?? 0) + 1);
  }

  unpin(key: SessionKey): void {
    const n = (this.pins.get(key) ?? 0) - 1;
    if (n > 0) this.pins.set(key, n);
    else this.pins.delete(key);
    this.evict();
  }

  private evict(): void {
    let unpinned = [...this.open.keys()].filter((k) => !this.pins.has(k));
    while (unpinned.length > this.max) {
      this.drop(unpinned[0]);
      unpinned = unpinned.slice(1);
    }
  }

  /** Closes a session's file. */
  drop(key: SessionKey): void {
    this.open.get(key)?.ledger.close();
    this.open.delete(key);
  }

  /** Reads what changed in an open session's file (serialized per session); null when not open. */
  refresh(key: SessionKey): Promise<SessionChange | null> {
    const prev = this.queue.get(key) ?? Promise.resolve();
    const next = prev.then(() => this.refreshNow(key));
    const tail = next.catch(() => undefined);
    this.queue.set(key, tail);
    void tail.then(() => {
      if (this.queue.get(key) === tail) this.queue.delete(key);
    });
    return next;
  }

  private async refreshNow(key: SessionKey): Promise<SessionChange | null> {
    const s = this.open.get(key);
    if (!s) return null;
    let ino: number;
    try {
      ino = statSync(s.path).ino;
    } catch {
      this.drop(key);
      return { kind: 'removed' };
    }
    if (ino !== s.ino) {
      // Replaced by another file (rename over it): our descriptor still reads the old one.
      const ledger = await Ledger.open(s.path);
      ledger.appendOnlyBreaks.push(...s.ledger.appendOnlyBreaks, { at: new Date().toISOString(), reason: 'rewritten' });
      s.ledger.close();
      Object.assign(s, { ledger, ino, layout: TreeLayout.build(ledger.index), revision: s.revision + 1 });
      return { kind: 'reloaded', reason: 'replaced' };
    }
    const r = await s.ledger.refresh();
    if (r.kind === 'unchanged') return r;
    s.revision++;
    if (r.kind === 'appended') s.layout.extend();
    else s.layout = TreeLayout.build(s.ledger.index);
    return r;
  }

  /** Keys of open sessions. */
  keys(): SessionKey[] {
    return [...this.open.keys()];
  }

  closeAll(): void {
    for (const k of [...this.open.keys()]) this.drop(k);
  }
}
