import type { ApiEvent, SessionKey, Subscription } from '../../shared/api';
import type { ApiClient } from './api-backend';

interface Sub {
  id: string;
  client: ApiClient;
  sub: Subscription;
}

/** Who follows what: library and per-session subscriptions, per client. */
export class Subscriptions {
  private subs = new Map<string, Sub>();
  private next = 1;

  add(client: ApiClient, sub: Subscription): string {
    const id = `sub-${this.next++}`;
    this.subs.set(id, { id, client, sub });
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
    this.pushWhere(e, (s) => s.topic === 'library');
  }

  /** Pushes a session event to the subscribers of that session (once per client). */
  pushSession(key: SessionKey, e: ApiEvent): void {
    this.pushWhere(e, (s) => s.topic === 'session' && s.key === key);
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

  private pushWhere(e: ApiEvent, match: (s: Subscription) => boolean): void {
    const sent = new Set<string>();
    for (const s of this.subs.values()) {
      if (!match(s.sub) || sent.has(s.client.id)) continue;
      sent.add(s.client.id);
      try {
        s.client.push(e);
      } catch {
        // A client that fails to take an event must not stop the others.
      }
    }
  }
}
