/**
 * Where files opened by path come from in the desktop app, and where they go: the command line of
 * the first launch, a second launch (single instance: `second-instance`), File → Open…, a drop.
 * Every one goes to the backend's `openFiles` (which checks, lists and announces them: the window
 * shows the first one, and says why any was refused); the window is brought to the front for a
 * second launch. Files that arrive before the backend is up wait for it. Without Electron, so the
 * routing is tested as it is.
 */
import type { OpenFileOutcome } from '../../shared/api';

export interface FileOpenerDeps {
  /** The backend's openFiles (WorkerBackend.openFiles). */
  openFiles(paths: string[]): Promise<OpenFileOutcome[]>;
  /** Shows and focuses the window (a second launch's files come from another app). */
  focusWindow(): void;
  /** Says that opening failed as a whole (the reader stopped…). */
  failed(message: string): void;
}

export class FileOpener {
  private deps: FileOpenerDeps | null = null;
  private waiting: string[] = [];

  /** The backend is up: files that came before it are opened now. */
  start(deps: FileOpenerDeps): Promise<OpenFileOutcome[]> {
    this.deps = deps;
    const first = this.waiting;
    this.waiting = [];
    return first.length > 0 ? this.open(first) : Promise.resolve([]);
  }

  /** Opens `paths` (none: nothing happens), or keeps them until start. */
  async open(paths: readonly string[], opts: { focus?: boolean } = {}): Promise<OpenFileOutcome[]> {
    if (paths.length === 0) return [];
    if (!this.deps) {
      this.waiting.push(...paths);
      return [];
    }
    if (opts.focus) this.deps.focusWindow();
    try {
      return await this.deps.openFiles([...paths]);
    } catch (e) {
      this.deps.failed(`could not open ${paths.join(', ')}: ${e instanceof Error ? e.message : String(e)}`);
      return [];
    }
  }
}
