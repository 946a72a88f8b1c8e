import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { SessionKey } from '../../shared/api';
import type { HomeChange } from './home-watcher';
import type { OpenedFile } from './opened-files';

/**
 * Watches files opened by path for appends, rewrites and removal, and reports them as the home's
 * watcher does (HomeChange), so an opened session follows appends like any other. Each file's
 * folder is watched (one inotify watch per folder, shared), not the file itself: a file replaced by
 * a rename keeps its name in the folder but not its inode, and a watch on the old inode would go
 * silent. Only stat is used (it never blocks, even on a FIFO swapped in). A slow rescan compares
 * (size, mtime) in case a watch was lost, as HomeWatcher's does.
 */
export class OpenedFilesWatcher {
  /** Folder → its watch and the opened files in it, by name. */
  private readonly dirs = new Map<string, { watcher: FSWatcher | null; names: Map<string, SessionKey> }>();
  private readonly seen = new Map<SessionKey, { path: string; size: number; mtimeMs: number } | null>();
  private readonly pending = new Map<SessionKey, NodeJS.Timeout>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly onChange: (c: HomeChange) => void,
    private readonly opts: { debounceMs?: number; rescanMs?: number } = {},
  ) {
    const every = opts.rescanMs ?? 10_000;
    if (every > 0) {
      this.timer = setInterval(() => this.rescan(), every);
      this.timer.unref();
    }
  }

  /** Starts watching an opened file (its real path); adding it again changes nothing. */
  add(f: OpenedFile): void {
    if (this.closed || this.seen.has(f.key)) return;
    const dir = dirname(f.realPath);
    let d = this.dirs.get(dir);
    if (!d) {
      d = { watcher: null, names: new Map() };
      this.dirs.set(dir, d);
      const names = d.names;
      try {
        d.watcher = watch(dir, { persistent: false }, (_ev, name) => {
          const key = name === null ? undefined : names.get(name.toString());
          if (key !== undefined) this.soon(key);
        });
        d.watcher.on('error', () => {
          // The folder went away: the rescan reports its files as removed.
          d?.watcher?.close();
          if (d) d.watcher = null;
        });
      } catch {
        // No watch (limits, permissions): the rescan still sees changes.
      }
    }
    d.names.set(basename(f.realPath), f.key);
    this.seen.set(f.key, this.statOf(f.realPath));
  }

  private statOf(path: string): { path: string; size: number; mtimeMs: number } | null {
    try {
      const st = statSync(path);
      return { path, size: st.size, mtimeMs: st.mtimeMs };
    } catch {
      return null;
    }
  }

  /** Coalesces a burst of writes into one report. */
  private soon(key: SessionKey): void {
    if (this.closed || this.pending.has(key)) return;
    const t = setTimeout(() => {
      this.pending.delete(key);
      this.check(key);
    }, this.opts.debounceMs ?? 2);
    this.pending.set(key, t);
  }

  private check(key: SessionKey, onlyWhenChanged = false): void {
    const before = this.seen.get(key);
    if (before === undefined || this.closed) return;
    const path = before?.path ?? this.pathOf(key);
    if (path === null) return;
    const now = this.statOf(path);
    this.seen.set(key, now ?? { path, size: -1, mtimeMs: -1 });
    if (now === null) {
      if (before && before.size >= 0) this.onChange({ type: 'removed', key });
      return;
    }
    if (onlyWhenChanged && before && before.size === now.size && before.mtimeMs === now.mtimeMs) return;
    this.onChange({ type: 'changed', key });
  }

  private pathOf(key: SessionKey): string | null {
    for (const [dir, d] of this.dirs) for (const [name, k] of d.names) if (k === key) return `${dir}/${name}`;
    return null;
  }

  /** Compares every watched file with what was last reported. */
  rescan(): void {
    for (const key of [...this.seen.keys()]) this.check(key, true);
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
