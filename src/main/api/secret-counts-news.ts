/**
 * Pushes every session's secret counts to library subscribers when they change, so a client asks
 * `getSecretCounts` once and then follows `secretCounts` events instead of polling while a scan
 * runs. Told of what may have moved them (a scanner made, its findings, a session's reading, the
 * survey); pushes at most once per `gapMs`, and only counts that differ from the last pushed.
 */
import type { SecretCounts } from '../../shared/api-secrets';
import type { SecretScanner } from '../secrets/secret-scanner';

/** Counts an open session's scan moved are pushed together at most this often (it moves them per batch). */
export const SECRET_COUNTS_GAP_MS = 200;
/** The survey's progress (a count per session it read, in the lulls of the calls) is pushed at most this often. */
export const SURVEY_COUNTS_GAP_MS = 2000;

export class SecretCountsNews {
  private last: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** When the waiting push is due (performance.now()). */
  private due = Infinity;
  private readonly followed = new WeakSet<SecretScanner>();
  private readonly awaitingIdle = new WeakSet<SecretScanner>();
  private closed = false;

  constructor(
    private readonly counts: () => SecretCounts,
    private readonly push: (counts: SecretCounts) => void,
    private readonly scanners: () => Iterable<SecretScanner>,
    private readonly gapMs = SECRET_COUNTS_GAP_MS,
    private readonly surveyGapMs = SURVEY_COUNTS_GAP_MS,
  ) {}

  /** A new scanner: its findings move the counts, and so does its scan going idle. */
  follow(s: SecretScanner): void {
    if (this.followed.has(s)) return;
    this.followed.add(s);
    s.onChange(() => this.poke());
    this.poke();
  }

  /**
   * Something the counts are made of may have changed: they are looked at soon (`survey`: the
   * survey's progress, later), and pushed if they moved.
   */
  poke(survey = false): void {
    if (this.closed) return;
    const gap = survey ? this.surveyGapMs : this.gapMs;
    const due = performance.now() + gap;
    if (this.timer !== null) {
      if (this.due <= due) return;
      clearTimeout(this.timer);
    }
    this.due = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.due = Infinity;
      this.send();
    }, gap);
    // (A push waiting never keeps the process alive.)
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.due = Infinity;
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
