import type { Subscription } from '../../shared/api';

interface Forwarded {
  clientId: string;
  sub: Subscription;
  /** The id the current worker gave it; changes when a restarted worker takes it up again. */
  workerId: string;
}

/**
 * Subscriptions made through the backend worker, remembered on the main thread: a client
 * holds a stable id of ours, so a restarted worker (with new ids) can take its
 * subscriptions up again without the client noticing anything but a reload event.
 */
export class ForwardedSubscriptions {
  private byId = new Map<string, Forwarded>();
  private next = 1;

  /** Records a subscription the worker made; returns the id the client gets. */
  add(clientId: string, sub: Subscription, workerId: string): string {
    const id = `wsub-${this.next++}`;
    this.byId.set(id, { clientId, sub, workerId });
    return id;
  }

  /** The worker's id for a client's subscription, or undefined when it is not this client's. */
  workerIdOf(clientId: string, id: string): string | undefined {
    const f = this.byId.get(id);
    return f && f.clientId === clientId ? f.workerId : undefined;
  }

  remove(id: string): void {
    this.byId.delete(id);
  }

  dropClient(clientId: string): void {
    for (const [id, f] of this.byId) if (f.clientId === clientId) this.byId.delete(id);
  }

  /** Every subscription, with its stable id (to take them up again after a restart). */
  all(): { id: string; clientId: string; sub: Subscription }[] {
    return [...this.byId].map(([id, f]) => ({ id, clientId: f.clientId, sub: f.sub }));
  }

  rebind(id: string, workerId: string): void {
    const f = this.byId.get(id);
    if (f) f.workerId = workerId;
  }
}
