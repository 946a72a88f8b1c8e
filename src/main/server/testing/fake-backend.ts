/**
 * A small ApiBackend for transport tests: answers a few methods, records
 * calls and disconnects, and lets a test push events to a client.
 */
import type { ApiEvent } from '../../../shared/api';
import { ApiError, type ApiBackend, type ApiClient } from '../../api/api-backend';

export class FakeBackend implements ApiBackend {
  readonly calls: { method: string; req: unknown; client: ApiClient }[] = [];
  readonly clients = new Map<string, ApiClient>();
  readonly disconnected: string[] = [];
  closed = false;
  /** `getChainItems` calls waiting for `release()`; the most ever waiting at once. */
  readonly held: (() => void)[] = [];
  maxHeld = 0;
  /** Characters of the text `getProjectedMessage` answers with. */
  bigReplyChars = 0;

  async call(method: string, rawReq: unknown, client: ApiClient): Promise<unknown> {
    this.calls.push({ method, req: rawReq, client });
    this.clients.set(client.id, client);
    switch (method) {
      case 'getHome':
        return { home: '/fake/home', isDemo: false, label: 'fake home' };
      case 'subscribe':
        return { subscription: `sub-${this.calls.length}` };
      case 'openSession':
        throw new ApiError('not_found', 'no such session');
      case 'getWarnings':
        throw new Error('boom');
      case 'getChainItems':
        await new Promise<void>((resolve) => {
          this.held.push(resolve);
          this.maxHeld = Math.max(this.maxHeld, this.held.length);
        });
        return { held: true };
      case 'getProjectedMessage':
        return { text: 'x'.repeat(this.bigReplyChars) };
      default:
        throw new ApiError('bad_request', `fake backend does not do ${method}`);
    }
  }

  disconnect(client: ApiClient): void {
    this.disconnected.push(client.id);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** Answers every held `getChainItems` call. */
  release(): void {
    for (const r of this.held.splice(0)) r();
  }

  /** Pushes an event to every client seen so far. */
  pushAll(event: ApiEvent): void {
    for (const c of this.clients.values()) c.push(event);
  }
}

/** A library event, for tests that push one. */
export const LIBRARY_EVENT: ApiEvent = { type: 'library', changed: [], removed: ['agents/vak/sessions/x/y.jsonl'] };
