/**
 * The one scheduler of an open session's background work (checking its hash chain or its kept
 * index, mapping its ids, reading its next step, keeping its index). Every job is made for one
 * generation of the session (session-state.ts); when the session moves to another, the scheduler
 * drops every job made for an earlier one — those waiting for their time and those waiting for a
 * promise — so a job never has to ask whether its session is still the one it was made for.
 */

/** When a job runs: after the I/O now pending (`immediate`), after this turn's timers (`timeout`), or after ms. */
export type JobTime = 'immediate' | 'timeout' | number;

interface Job {
  readonly name: string;
  readonly generation: number;
  /** The timer waiting for the job's time, until it fired. */
  timer: { timeout: NodeJS.Timeout } | { immediate: NodeJS.Immediate } | null;
  run: () => void;
}

export class SessionScheduler {
  private readonly jobs = new Set<Job>();
  private closed = false;

  constructor(private current: number) {}

  /** The generation jobs are made for now. */
  get generation(): number {
    return this.closed ? -1 : this.current;
  }

  /** The session moved to `generation`: every job made for another is dropped now. */
  advance(generation: number): void {
    this.current = generation;
    for (const j of this.jobs) if (j.generation !== generation) this.drop(j);
  }

  /** The session was removed: every job is dropped, and none is taken again. */
  close(): void {
    this.closed = true;
    for (const j of this.jobs) this.drop(j);
  }

  /** Runs `fn` at `time` if the session is still at `generation` then (named, for `runNow`/`has`). */
  at(name: string, generation: number, time: JobTime, fn: () => void): void {
    if (!this.live(generation)) return;
    const job: Job = { name, generation, timer: null, run: fn };
    const fire = (): void => {
      job.timer = null;
      if (!this.jobs.delete(job) || !this.live(job.generation)) return;
      job.run();
    };
    if (time === 'immediate') job.timer = { immediate: setImmediate(fire) };
    else {
      const t = setTimeout(fire, time === 'timeout' ? 0 : time);
      // Waiting background work never keeps the process alive (the app's close flushes it: runNow).
      if (time !== 'timeout') t.unref();
      job.timer = { timeout: t };
    }
    this.jobs.add(job);
  }

  /**
   * Runs `then` with what `p` resolves to, if the session is still at `generation` then (a job
   * named `name` waits meanwhile); resolves when `then` is done, or dropped.
   */
  after<T>(name: string, generation: number, p: Promise<T>, then: (value: T) => void | Promise<void>): Promise<void> {
    if (!this.live(generation)) return p.then(() => undefined);
    const job: Job = { name, generation, timer: null, run: () => undefined };
    this.jobs.add(job);
    return p.then(
      (value) => {
        if (this.jobs.delete(job) && this.live(generation)) return then(value);
      },
      (e: unknown) => {
        this.jobs.delete(job);
        throw e;
      },
    );
  }

  /** `fn` as a function that runs only while the session is still at `generation` (work queued elsewhere). */
  whileAt<T>(generation: number, fn: () => Promise<T>): () => Promise<T | undefined> {
    return () => (this.live(generation) ? fn() : Promise.resolve(undefined));
  }

  /** Whether a job named `name` waits. */
  has(name: string): boolean {
    for (const j of this.jobs) if (j.name === name) return true;
    return false;
  }

  /** Runs the jobs named `name` that wait for their time now; false when none waited. */
  runNow(name: string): boolean {
    let ran = false;
    for (const j of [...this.jobs]) {
      if (j.name !== name || j.timer === null) continue;
      this.drop(j);
      ran = true;
      j.run();
    }
    return ran;
  }

  /** Drops the jobs named `name` (done another way meanwhile). */
  cancel(name: string): void {
    for (const j of this.jobs) if (j.name === name) this.drop(j);
  }

  /** Jobs waiting (tests, diagnostics). */
  get size(): number {
    return this.jobs.size;
  }

  private live(generation: number): boolean {
    return !this.closed && generation === this.current;
  }

  private drop(j: Job): void {
    if (j.timer !== null) {
      if ('timeout' in j.timer) clearTimeout(j.timer.timeout);
      else clearImmediate(j.timer.immediate);
    }
    j.timer = null;
    this.jobs.delete(j);
  }
}
