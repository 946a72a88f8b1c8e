import type { ApiEvent, SessionKey, Subscription } from '../../shared/api';
import type { ApiClient } from './api-backend';

interface Sub {
  id: string;
  client: ApiClient;
  sub: Subscription;
  /**
   * A session subscriber that missed steps of a first read (its open came by another way, at
   * this entry count): its next step's delta is built from here (Subscriptions.pushSession).
   */
  catchUpFrom?: number;
}

/** A session event built for the entries from `firstNew` on (an append's or a step's, with its delta). */
export type EventFrom = (firstNew: number) => ApiEvent;

/** Who follows what: library and per-session subscriptions, per client. */
export class Subscriptions {
  private subs = new Map<string, Sub>();
  private next = 1;

  /** Adds a subscription; `catchUpFrom`: see Sub. */
  add(client: ApiClient, sub: Subscription, catchUpFrom?: number): string {
    const id = `sub-${this.next++}`;
    this.subs.set(id, { id, client, sub, ...(catchUpFrom === undefined ? {} : { catchUpFrom }) });
    return id;
  }

  /** Removes one subscription of this client; returns it, or undefined when it is not this client's. */
  remove(client: ApiClient, id: string): Subscription | undefined {
    const s = this.subs.get(id);
    if (!s || s.client.id !== client.id) return undefined;
    this.subs.delete(id);
    return s.sub;
  }

  /** Drops every subscription of a client; returns them (to unpin sessions). */
  dropClient(client: ApiClient): Subscription[] {
    const out: Subscription[] = [];
    for (const [id, s] of this.subs) {
      if (s.client.id === client.id) {
        this.subs.delete(id);
        out.push(s.sub);
      }
    }
    return out;
  }

  /** Pushes a library event to every library subscriber (once per client). */
  pushLibrary(e: ApiEvent): void {
    this.pushWhere(
      () => e,
      (s) => s.topic === 'library',
    );
  }

  /**
   * Pushes a session event to the subscribers of that session (once per client). `from`: the same
   * event built from another entry (an append's or a step's): a subscriber still to catch up gets
   * it built from where it stands, once; any other event (a reload) tells it everything anyway.
   */
  pushSession(key: SessionKey, e: ApiEvent, from?: EventFrom): void {
    const ofSession = (s: Subscription): boolean => s.topic === 'session' && s.key === key;
    // Built before any is pushed: a build that throws (a line read back changed) pushes nothing.
    const caught = new Map<string, ApiEvent>();
    const behind = new Map<string, number>();
    for (const s of this.subs.values()) {
      if (s.catchUpFrom === undefined || !ofSession(s.sub)) continue;
      behind.set(s.client.id, Math.min(s.catchUpFrom, behind.get(s.client.id) ?? Infinity));
    }
    if (from) {
      const built = new Map<number, ApiEvent>();
      for (const [client, at] of behind) {
        let event = built.get(at);
        if (!event) built.set(at, (event = from(at)));
        caught.set(client, event);
      }
    }
    for (const s of this.subs.values()) if (ofSession(s.sub)) delete s.catchUpFrom;
    this.pushWhere((client) => caught.get(client.id) ?? e, ofSession);
  }

  hasLibrary(): boolean {
    for (const s of this.subs.values()) if (s.sub.topic === 'library') return true;
    return false;
  }

  hasSession(key: SessionKey): boolean {
    for (const s of this.subs.values()) if (s.sub.topic === 'session' && s.sub.key === key) return true;
    return false;
  }

  get size(): number {
    return this.subs.size;
  }

  private pushWhere(eventFor: (client: ApiClient) => ApiEvent, match: (s: Subscription) => boolean): void {
    const sent = new Set<string>();
    for (const s of this.subs.values()) {
      if (!match(s.sub) || sent.has(s.client.id)) continue;
      sent.add(s.client.id);
      try {
        s.client.push(eventFor(s.client));
      } catch {
        // A client that fails to take an event must not stop the others.
      }
    }
  }
}
