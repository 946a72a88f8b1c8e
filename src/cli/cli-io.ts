/** Where a CLI command writes: the real stdout/stderr, or buffers in tests. */
export interface CliIo {
  out(s: string): void;
  err(s: string): void;
}
