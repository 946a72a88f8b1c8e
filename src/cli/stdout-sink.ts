/**
 * The CLI's stdout as a sink that cannot crash the command. A reader that stops early
 * (`verify BIG | head`) closes the pipe (EPIPE); a full disk or /dev/full refuses the bytes
 * (ENOSPC). Node reports either as an 'error' event that, unhandled, kills the process with a
 * stack trace and exit 1 — after a branch was appended, a script would then append it again.
 * Here the first failure is remembered, later output is dropped, and the command decides.
 */
import { errnoText } from './errno-text';

export class StdoutSink {
  private failure: NodeJS.ErrnoException | null = null;
  private claimed = false;
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly stream: NodeJS.WritableStream) {
    stream.on('error', (e: NodeJS.ErrnoException) => (this.failure ??= e));
  }

  write(s: string): void {
    if (this.failure !== null) return;
    this.last = new Promise((resolve) => {
      this.stream.write(s, (e?: Error | null) => {
        if (e) this.failure ??= e as NodeJS.ErrnoException;
        resolve();
      });
    });
  }

  /**
   * Resolves once everything written so far was handed to the system: a command that writes a
   * long output waits here between pieces, so at most one piece waits in memory. (Waiting for
   * the write's own callback, not only for 'drain': a stream that writes synchronously, such as
   * a file, calls back on the next tick, and a loop that never leaves its microtasks would keep
   * every callback, and the chunk with it, queued until the end.)
   */
  ready(): Promise<void> {
    return this.last;
  }

  /** True once a write failed: later output is dropped (a long output may stop making it). */
  get failed(): boolean {
    return this.failure !== null;
  }

  /** Waits for every write; the failure, if any, is then the caller's to report. */
  async claimFailure(): Promise<NodeJS.ErrnoException | null> {
    await this.last;
    this.claimed = this.failure !== null;
    return this.failure;
  }

  /**
   * The exit code once the command returned `code`, after a line on `err` for a failure no
   * command reported. EPIPE is the reader's choice to stop: quiet, and the code stands
   * (`verify | head` still exits 1 for warnings). Any other failure lost output the user
   * asked for: one line, and exit 2 where the command had succeeded.
   */
  async finish(code: number, err: (s: string) => void): Promise<number> {
    await this.last;
    const f = this.failure;
    if (f === null || this.claimed || f.code === 'EPIPE') return code;
    err(`vak-explorer: cannot write the output to stdout (${errnoText(f)}); it is incomplete\n`);
    return code === 0 ? 2 : code;
  }
}
