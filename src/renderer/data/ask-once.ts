import { Lru } from '../../shared/lru';

/**
 * Answers keyed by what was asked: a question asked again while its answer is on the way shares
 * that request, and one answered is answered from memory (the key must name everything the answer
 * depends on, e.g. the tree's version). Several views wanting the same fact at once (the cursor, the
 * session's opening, a fold) thus cost one request. A failed answer is forgotten: asked again later.
 */
export class AskOnce<V> {
  private readonly inflight = new Map<string, Promise<V>>();
  private readonly known: Lru<string, V>;

  constructor(max = 256) {
    this.known = new Lru(max);
  }

  ask(key: string, fetch: () => Promise<V>): Promise<V> {
    if (this.known.has(key)) return Promise.resolve(this.known.get(key) as V);
    const have = this.inflight.get(key);
    if (have) return have;
    const p = fetch().then(
      (v) => {
        if (this.inflight.get(key) === p) {
          this.inflight.delete(key);
          this.known.set(key, v);
        }
        return v;
      },
      (e: unknown) => {
        if (this.inflight.get(key) === p) this.inflight.delete(key);
        throw e;
      },
    );
    this.inflight.set(key, p);
    return p;
  }

  /** An answer that arrived another way (with another request): asking `key` is answered from it. */
  tell(key: string, value: V): void {
    this.inflight.delete(key);
    this.known.set(key, value);
  }

  /** Forgets every answer and request (another session): later questions are asked anew. */
  clear(): void {
    this.inflight.clear();
    this.known.clear();
  }
}
