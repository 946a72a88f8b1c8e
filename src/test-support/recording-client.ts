import type { ApiClient } from '../main/api/api-backend';
import type { ApiEvent } from '../shared/api';

/** A backend client for tests: keeps every event pushed to it, and waits for those a test asks for. */
export class RecordingClient implements ApiClient {
  events: ApiEvent[] = [];
  private waiting: { pred: (e: ApiEvent) => boolean; resolve: (e: ApiEvent) => void }[] = [];
  constructor(readonly id: string) {}

  push(e: ApiEvent): void {
    this.events.push(e);
    for (const w of [...this.waiting]) {
      if (!w.pred(e)) continue;
      this.waiting.splice(this.waiting.indexOf(w), 1);
      w.resolve(e);
    }
  }

  /** The next event matching `pred` pushed from now on. */
  next(pred: (e: ApiEvent) => boolean): Promise<ApiEvent> {
    return new Promise((resolve) => this.waiting.push({ pred, resolve }));
  }

  /**
   * An event matching `pred` pushed already, or else the next one. Rejects after `failAfterMs`
   * naming every event seen (a failure guard, not a wait: the answer comes with the event).
   */
  seenOrNext(pred: (e: ApiEvent) => boolean, failAfterMs = 15_000): Promise<ApiEvent> {
    const seen = this.events.find(pred);
    if (seen) return Promise.resolve(seen);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const failed = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no matching event in ${failAfterMs} ms; got ${JSON.stringify(this.events)}`)),
        failAfterMs,
      );
    });
    return Promise.race([this.next(pred), failed]).finally(() => clearTimeout(timer));
  }
}
