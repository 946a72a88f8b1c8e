/** Where a CLI command writes: the real stdout/stderr, or buffers in tests. */
export interface CliIo {
  out(s: string): void;
  err(s: string): void;
  /**
   * Waits until everything given to `out` was written, then says why stdout failed, or null.
   * A command that must report what it did whatever stdout does (a branch, once appended) asks
   * this, and the failure is then its to report; absent (buffers), nothing can fail.
   */
  outFailure?(): Promise<NodeJS.ErrnoException | null>;
  /**
   * Resolves when `out` takes more without piling up in memory (absent: at once). A long output
   * is written in pieces with a wait here between them; `outFailed` says when to stop writing.
   */
  outReady?(): Promise<void>;
  /** True once stdout failed: the rest of a long output would be dropped, so it need not be made. */
  outFailed?(): boolean;
}
