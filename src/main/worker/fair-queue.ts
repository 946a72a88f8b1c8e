/**
 * The worker's waiting calls, taken in turn per client: a client that sends hundreds of
 * requests (one that stopped reading its replies keeps sending) delays another client's next
 * call by at most one call of its own, not by all it queued.
 */
export class FairQueue<T extends { id: number; clientId: string }> {
  /** Waiting calls per client; the map's order is the clients' turn order. */
  private readonly byClient = new Map<string, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(call: T): void {
    const calls = this.byClient.get(call.clientId);
    if (calls) calls.push(call);
    else this.byClient.set(call.clientId, [call]);
    this.count++;
  }

  /** The oldest call of the first client in turn that `mayStart`; that client goes to the back of the turn. */
  take(mayStart: (clientId: string) => boolean): T | undefined {
    for (const [clientId, calls] of this.byClient) {
      if (!mayStart(clientId)) continue;
      const call = calls.shift() as T;
      this.byClient.delete(clientId);
      if (calls.length > 0) this.byClient.set(clientId, calls);
      this.count--;
      return call;
    }
    return undefined;
  }

  /** Removes call `id`; false when it is not waiting. */
  remove(id: number): boolean {
    for (const [clientId, calls] of this.byClient) {
      const k = calls.findIndex((c) => c.id === id);
      if (k < 0) continue;
      calls.splice(k, 1);
      if (calls.length === 0) this.byClient.delete(clientId);
      this.count--;
      return true;
    }
    return false;
  }

  /** Removes and returns every waiting call of `clientId`. */
  dropClient(clientId: string): T[] {
    const calls = this.byClient.get(clientId) ?? [];
    this.byClient.delete(clientId);
    this.count -= calls.length;
    return calls;
  }
}
