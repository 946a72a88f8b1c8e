import type { ApiErrorPayload, ApiEvent } from '../../shared/api';
import type { CancelSignal } from '../core/cancel';

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
  /**
   * Validates `rawReq` for `method` and runs it; rejects with ApiError. Aborting `signal`
   * (a superseded request) makes it reject with code `cancelled`: work not started is
   * skipped, and long work stops at its next check (between turns, between pages).
   */
  call(method: string, rawReq: unknown, client: ApiClient, signal?: AbortSignal): Promise<unknown>;
  /** The client went away: drop its subscriptions. */
  disconnect(client: ApiClient): void;
  close(): Promise<void>;
}

/**
 * A backend that can answer with its result's JSON text (or undefined for no result), written
 * off the calling thread: WorkerBackend, whose worker serializes it. Serve mode's socket sends
 * that text as it is.
 */
export interface JsonAnswers {
  callJson(method: string, rawReq: unknown, client: ApiClient, signal?: AbortSignal): Promise<string | undefined>;
}

export function answersJson(b: ApiBackend): b is ApiBackend & JsonAnswers {
  return typeof (b as Partial<JsonAnswers>).callJson === 'function';
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

/** The error of a call whose caller aborted it. */
export function cancelledError(): ApiError {
  return new ApiError('cancelled', 'cancelled: a newer request superseded it');
}

/** Throws the `cancelled` ApiError when `signal` was aborted: long work calls it between steps. */
export function throwIfCancelled(signal: CancelSignal | undefined): void {
  if (signal?.aborted) throw cancelledError();
}

/** Any thrown value as the payload a transport sends back. */
export function errorPayload(e: unknown): ApiErrorPayload {
  if (e instanceof ApiError) return e.toPayload();
  return { code: 'internal', message: unexpectedErrorText(e) };
}

/**
 * An unexpected error in words for a client. A SyntaxError is JSON.parse's, whose message
 * quotes the text it met: a file's bytes would reach the client, so only the kind is said.
 */
export function unexpectedErrorText(e: unknown): string {
  if (e instanceof SyntaxError) return 'text that should have been JSON was not (it is not quoted here)';
  return e instanceof Error ? e.message : String(e);
}
