import { watch, statSync, readdirSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { SessionKey } from '../../shared/api';
import { SESSION_EXT, sessionKey } from '../../shared/session-key';

/**
 * Watches a home for new agents, folders and sessions, appends and deletions.
 *
 * Why plain `fs.watch`, one watcher per directory: the §1 layout has a fixed depth
 * (home, agents/, <agent>/, sessions/, <cwd-hash>/), so we know exactly which
 * directories matter and add a watch when one appears. Each is one inotify watch
 * on Linux, delivered in well under a millisecond. `@parcel/watcher` installs and
 * loads here, but it delivers events through a debounce of at least 50 ms (measured:
 * median 50.5 ms per append), which alone misses the < 50 ms append→event target;
 * chokidar adds a dependency to wrap the same `fs.watch`. Node 20's recursive
 * `fs.watch` on Linux is a JavaScript emulation we do not need for a fixed depth.
 *
 * A watch can be lost (inotify limits, a directory replaced): a slow periodic
 * rescan compares (size, mtime) of every file and reports what the watches missed.
 */

export type HomeChange = { type: 'changed'; key: SessionKey } | { type: 'removed'; key: SessionKey };

export interface HomeWatcherOptions {
  /** Coalescing window for bursts of writes to one file (ms). */
  debounceMs?: number;
  /** Safety rescan interval (ms); 0 turns it off. */
  rescanMs?: number;
}

interface Dir {
  /** Depth below the home: 0 home, 1 agents, 2 <agent>, 3 sessions, 4 <cwd-hash>. */
  depth: number;
  agent: string;
  hash: string;
  /** Inode when watched: a folder removed and made again under the same name needs a new watch. */
  ino: number;
  watcher: FSWatcher | null;
}

function inode(path: string): number {
  try {
    return statSync(path).ino;
  } catch {
    return -1;
  }
}

export class HomeWatcher {
  private dirs = new Map<string, Dir>();
  /** Files seen per session key, with the (size, mtime) last reported. */
  private files = new Map<SessionKey, { dir: string; size: number; mtimeMs: number }>();
  private pending = new Map<SessionKey, NodeJS.Timeout>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    readonly home: string,
    private readonly onChange: (c: HomeChange) => void,
    private readonly opts: HomeWatcherOptions = {},
  ) {}

  /** Starts watching; files already there are known, not reported. */
  start(): void {
    this.addDir(this.home, { depth: 0, agent: '', hash: '', ino: inode(this.home) }, false);
    const every = this.opts.rescanMs ?? 10_000;
    if (every > 0) {
      this.timer = setInterval(() => this.rescan(), every);
      this.timer.unref();
    }
  }

  private addDir(path: string, d: Omit<Dir, 'watcher'>, report: boolean): void {
    if (this.closed || this.dirs.has(path)) return;
    const dir: Dir = { ...d, watcher: null };
    this.dirs.set(path, dir);
    try {
      dir.watcher = watch(path, { persistent: false }, (_ev, name) => {
        if (name !== null) this.onEntry(path, dir, name.toString());
      });
      dir.watcher.on('error', () => this.removeDir(path));
    } catch {
      // Not there (yet), or no more watches: the parent's event or the rescan brings it back.
      this.dirs.delete(path);
      return;
    }
    // List after the watch is set, so nothing created in between is missed.
    let names: string[];
    try {
      names = readdirSync(path);
    } catch {
      names = [];
    }
    for (const name of names) this.onEntry(path, dir, name, report);
  }

  private removeDir(path: string): void {
    const d = this.dirs.get(path);
    d?.watcher?.close();
    this.dirs.delete(path);
    for (const [p] of this.dirs) if (p.startsWith(path + '/')) this.removeDir(p);
    for (const [key, f] of this.files) {
      if (f.dir === path || f.dir.startsWith(path + '/')) {
        this.files.delete(key);
        this.onChange({ type: 'removed', key });
      }
    }
  }

  /** A name inside a watched directory was created, changed or removed. */
  private onEntry(parent: string, d: Dir, name: string, report = true): void {
    if (this.closed) return;
    const path = join(parent, name);
    if (d.depth === 4) {
      if (name.endsWith(SESSION_EXT) && name.length > SESSION_EXT.length) {
        this.fileEvent(parent, d, name.slice(0, -SESSION_EXT.length), report);
      }
      return;
    }
    if (d.depth === 0 && name !== 'agents') return;
    if (d.depth === 2 && name !== 'sessions') return;
    let ino = -1;
    try {
      const st = statSync(path);
      if (st.isDirectory()) ino = st.ino;
    } catch {
      ino = -1;
    }
    const known = this.dirs.get(path);
    if (known && known.ino !== ino) this.removeDir(path);
    if (ino < 0) return;
    const depth = d.depth + 1;
    const next = { depth, agent: depth === 2 ? name : d.agent, hash: depth === 4 ? name : d.hash, ino };
    this.addDir(path, next, report);
  }

  private fileEvent(dir: string, d: Dir, sessionId: string, report: boolean): void {
    const key = sessionKey(d.agent, d.hash, sessionId);
    if (!report) {
      this.note(key, dir, join(dir, sessionId + SESSION_EXT));
      return;
    }
    // Coalesce a burst of writes to one file into one report.
    if (this.pending.has(key)) return;
    const t = setTimeout(() => {
      this.pending.delete(key);
      this.check(key, dir, join(dir, sessionId + SESSION_EXT));
    }, this.opts.debounceMs ?? 2);
    this.pending.set(key, t);
  }

  /**
   * Records a file's (size, mtime); false when nothing is there. Only stat is used (it never
   * blocks, even on a FIFO): a FIFO or device named *.jsonl is reported like a file, and the
   * library lists it as not readable without opening it.
   */
  private note(key: SessionKey, dir: string, path: string): boolean {
    try {
      const st = statSync(path);
      if (st.isDirectory()) return false;
      this.files.set(key, { dir, size: st.size, mtimeMs: st.mtimeMs });
      return true;
    } catch {
      return false;
    }
  }

  private check(key: SessionKey, dir: string, path: string): void {
    if (this.closed) return;
    if (this.note(key, dir, path)) this.onChange({ type: 'changed', key });
    else if (this.files.delete(key)) this.onChange({ type: 'removed', key });
  }

  /** Compares every known and present file with what was last reported. */
  rescan(): void {
    if (this.closed) return;
    // A home that did not exist at start (or was replaced) is watched once it is there.
    if (!this.dirs.has(this.home))
      this.addDir(this.home, { depth: 0, agent: '', hash: '', ino: inode(this.home) }, true);
    // Directories that appeared without an event (a lost watch) are picked up here.
    for (const [path, d] of [...this.dirs]) {
      let names: string[];
      try {
        names = readdirSync(path);
      } catch {
        this.removeDir(path);
        continue;
      }
      if (d.depth < 4) {
        for (const name of names) if (!this.dirs.has(join(path, name))) this.onEntry(path, d, name);
        continue;
      }
      for (const name of names) {
        if (!name.endsWith(SESSION_EXT)) continue;
        const key = sessionKey(d.agent, d.hash, name.slice(0, -SESSION_EXT.length));
        const before = this.files.get(key);
        try {
          const st = statSync(join(path, name));
          if (!before || before.size !== st.size || before.mtimeMs !== st.mtimeMs)
            this.check(key, path, join(path, name));
        } catch {
          // Gone between the listing and the stat: the next pass reports it.
        }
      }
    }
    for (const [key, f] of [...this.files]) {
      try {
        statSync(join(this.home, ...key.split('/')));
      } catch {
        this.check(key, f.dir, join(this.home, ...key.split('/')));
      }
    }
  }

  /** Directories watched now (tests, diagnostics). */
  get watchedDirs(): number {
    return this.dirs.size;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
    for (const d of this.dirs.values()) d.watcher?.close();
    this.dirs.clear();
  }
}
