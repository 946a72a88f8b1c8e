/**
 * Messages between the main thread (WorkerBackend) and the backend worker thread
 * (backend-worker.ts). Every message is plain data (structured-clone safe): no class
 * instances, no functions. Clients cross the boundary as their ids; the worker pushes
 * events by client id and the main thread hands them to the right client.
 */
import { z } from 'zod';
import { API_EVENT_TYPES, type ApiErrorPayload, type ApiEvent } from '../../shared/api';
import type { CoreWork } from '../core/core-work';

/** Main → worker. */
export type ToWorker =
  /**
   * Run one API method for a client; answered by a `result` with the same id: with `json`, its
   * result as JSON text written here (a big answer then costs the main thread a string copy, not
   * a structured clone it rebuilds and then serializes again for a socket).
   */
  | {
      type: 'call';
      id: number;
      method: string;
      req: unknown;
      clientId: string;
      json?: boolean;
      /**
       * A `branch` whose earlier attempt (sent at this time, ms) had an unknown outcome (its worker
       * stopped): the directive is looked for in the file first, and appended only when missing.
       */
      recoverSince?: number;
    }
  /**
   * The caller no longer wants call `id` (a superseded selection). A call still queued is
   * dropped unrun; a running call sees its AbortSignal aborted (honoured between pages/turns
   * by code that checks it). The main thread has already answered the caller.
   */
  | { type: 'cancel'; id: number }
  /** The client went away: drop its subscriptions. */
  | { type: 'disconnect'; clientId: string }
  /** Open files by path (the desktop app only; never a client's call): answered by a `result` with this id. */
  | { type: 'openFiles'; id: number; paths: string[] }
  /** Counted work, for tests: answered by `stats`. */
  | { type: 'stats' }
  /** Release watchers and files; answered by `closed`. */
  | { type: 'close' };

/** What the worker has done, counted (work-count tests, never timings). */
export interface WorkerStats {
  /** Calls whose handler started. */
  callsRun: number;
  /** Calls dropped before they started, because they were cancelled. */
  callsDroppedUnrun: number;
  /** Running calls whose signal was aborted. */
  callsAbortedRunning: number;
  /** Calls that ended with code `cancelled` (the backend stopped their work). */
  callsEndedCancelled: number;
  /** The core's counted work over the sessions open now (see CoreWork). */
  core: CoreWork;
  /** The secret scan thread's id (worker_threads) once it started; null before, or when it could not. */
  secretScanThread: number | null;
  /** The worker's own kernel thread id (Linux), so a test reads that thread's priority and no other's. */
  osThread: number | null;
}

/** Worker → main. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'startFailed'; message: string }
  | { type: 'result'; id: number; ok: true; res: unknown }
  | { type: 'result'; id: number; ok: true; json: string }
  | { type: 'result'; id: number; ok: false; error: ApiErrorPayload }
  | { type: 'push'; clientId: string; event: ApiEvent }
  | { type: 'stats'; stats: WorkerStats }
  | { type: 'closed' };

const errorCode = z.enum([
  'bad_request',
  'not_found',
  'locked',
  'refused',
  'internal',
  'too_large',
  'cancelled',
  'unknown_outcome',
]);

/**
 * The envelope of a worker message, checked at runtime on the main thread (a worker is our
 * own code, but a bug there must fail one call with a clear error, not the host). Payloads
 * (`res`, `event`) are the API's own types, produced by the validated backend.
 */
export const fromWorker: z.ZodType<FromWorker> = z.union([
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('startFailed'), message: z.string() }),
  // (Before the `res` form: a union takes its first match, and `res: unknown` matches a missing res.)
  z.object({ type: z.literal('result'), id: z.number().int(), ok: z.literal(true), json: z.string() }).strict(),
  z.object({ type: z.literal('result'), id: z.number().int(), ok: z.literal(true), res: z.unknown() }),
  z.object({
    type: z.literal('result'),
    id: z.number().int(),
    ok: z.literal(false),
    error: z.object({ code: errorCode, message: z.string() }),
  }),
  z.object({ type: z.literal('push'), clientId: z.string(), event: z.custom<ApiEvent>((v) => isEvent(v)) }),
  z.object({
    type: z.literal('stats'),
    stats: z.object({
      callsRun: z.number(),
      callsDroppedUnrun: z.number(),
      callsAbortedRunning: z.number(),
      callsEndedCancelled: z.number(),
      core: z.object({
        bytesRead: z.number(),
        linesParsed: z.number(),
        entriesMaterialised: z.number(),
        turnsProjected: z.number(),
        turnsReused: z.number(),
        turnsNoted: z.number(),
      }),
      secretScanThread: z.number().nullable(),
      osThread: z.number().nullable(),
    }),
  }),
  z.object({ type: z.literal('closed') }),
]) as z.ZodType<FromWorker>;

/** The worker side checks what the main thread sends the same way. */
export const toWorker: z.ZodType<ToWorker> = z.union([
  z.object({
    type: z.literal('call'),
    id: z.number().int(),
    method: z.string(),
    req: z.unknown(),
    clientId: z.string(),
    json: z.boolean().optional(),
    recoverSince: z.number().optional(),
  }),
  z.object({ type: z.literal('cancel'), id: z.number().int() }),
  z.object({ type: z.literal('disconnect'), clientId: z.string() }),
  z.object({ type: z.literal('openFiles'), id: z.number().int(), paths: z.array(z.string()) }),
  z.object({ type: z.literal('stats') }),
  z.object({ type: z.literal('close') }),
]) as z.ZodType<ToWorker>;

function isEvent(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const t = (v as { type?: unknown }).type;
  return (API_EVENT_TYPES as readonly unknown[]).includes(t);
}

/**
 * Slots of the shared cancel table: the main thread writes a cancelled call's id into slot
 * `id % CANCEL_SLOTS` (Atomics), and the worker's running call sees it between turns without
 * waiting for its event loop (a projection runs synchronously). A slot is reused only after
 * CANCEL_SLOTS newer calls, far more than ever run at once.
 */
export const CANCEL_SLOTS = 4096;

/** The worker's view of one call's cancellation: its AbortController, or its id in the shared table. */
export function callCancelled(table: Int32Array, id: number, signal: AbortSignal): { readonly aborted: boolean } {
  return {
    get aborted(): boolean {
      return signal.aborted || Atomics.load(table, id % CANCEL_SLOTS) === id;
    },
  };
}

/**
 * The largest answer (JSON text, characters) the worker hands the main thread: a bigger one is
 * refused with `too_large` where it was written. Every answer that can grow with a ledger is
 * paged or clipped far below this; the cap keeps one that is not from costing the main thread
 * (which serves every window and socket) copies of hundreds of MB.
 */
export const MAX_ANSWER_CHARS = 128 << 20;

/** The message of a call that was cancelled (superseded) before it answered. */
export const CANCELLED = 'cancelled: a newer request superseded it';
