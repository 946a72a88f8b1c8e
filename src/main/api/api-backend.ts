import type { ApiErrorPayload, ApiEvent } from '../../shared/api';

/**
 * The transport-agnostic side of the API: Electron IPC and the loopback
 * WebSocket server both hand raw requests to an ApiBackend and push its events
 * to their client. Validation of the request happens inside `call`.
 */
export interface ApiClient {
  /** Unique per connection (a webContents, a WebSocket). */
  readonly id: string;
  /** Delivers a pushed event to this client (queued by the transport until the client is ready). */
  push(event: ApiEvent): void;
}

export interface ApiBackend {
  /** Validates `rawReq` for `method` and runs it; rejects with ApiError. */
  call(method: string, rawReq: unknown, client: ApiClient): Promise<unknown>;
  /** The client went away: drop its subscriptions. */
  disconnect(client: ApiClient): void;
  close(): Promise<void>;
}

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorPayload['code'],
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toPayload(): ApiErrorPayload {
    return { code: this.code, message: this.message };
  }
}

/** Any thrown value as the payload a transport sends back. */
export function errorPayload(e: unknown): ApiErrorPayload {
  if (e instanceof ApiError) return e.toPayload();
  return { code: 'internal', message: e instanceof Error ? e.message : String(e) };
}
