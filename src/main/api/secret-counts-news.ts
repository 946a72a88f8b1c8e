/**
 * Pushes every session's secret counts to library subscribers when they change, so a client asks
 * `getSecretCounts` once and then follows `secretCounts` events instead of polling while a scan
 * runs. Told of what may have moved them (a scanner made, its findings, a session's reading, the
 * survey); pushes at most once per `gapMs`, and only counts that differ from the last pushed.
 */
import type { SecretCounts } from '../../shared/api-secrets';
import type { SecretScanner } from '../secrets/secret-scanner';

/** Counts that moved are pushed together at most this often (a first read's scan moves them per batch). */
export const SECRET_COUNTS_GAP_MS = 200;

export class SecretCountsNews {
  private last: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly followed = new WeakSet<SecretScanner>();
  private readonly awaitingIdle = new WeakSet<SecretScanner>();
  private closed = false;

  constructor(
    private readonly counts: () => SecretCounts,
    private readonly push: (counts: SecretCounts) => void,
    private readonly scanners: () => Iterable<SecretScanner>,
    private readonly gapMs = SECRET_COUNTS_GAP_MS,
  ) {}

  /** A new scanner: its findings move the counts, and so does its scan going idle. */
  follow(s: SecretScanner): void {
    if (this.followed.has(s)) return;
    this.followed.add(s);
    s.onChange(() => this.poke());
    this.poke();
  }

  /** Something the counts are made of may have changed: they are looked at soon, and pushed if they moved. */
  poke(): void {
    if (this.closed || this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.send();
    }, this.gapMs);
    // (A push waiting never keeps the process alive.)
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private send(): void {
    if (this.closed) return;
    const counts = this.counts();
    const text = JSON.stringify(counts);
    // A scan still busy: its end ('scanning' false, the count final) is news too.
    for (const s of this.scanners()) {
      if (!s.busy || this.awaitingIdle.has(s)) continue;
      this.awaitingIdle.add(s);
      void s.whenIdle().then(() => {
        this.awaitingIdle.delete(s);
        this.poke();
      });
    }
    if (text === this.last) return;
    this.last = text;
    this.push(counts);
  }
}
