/**
 * Messages between a reading thread (scan-thread.ts) and the secret scan thread
 * (secret-scan-worker.ts). Plain data; each batch's buffer is transferred there and back, so
 * the reading thread never copies them more than once. Only our own threads talk on this channel.
 */
import type { BatchResult, LineBatch } from './scan-batch';

/** The scan thread's name (Linux: its `comm`), so tools can tell it from the backend thread. */
export const THREAD_NAME = 'vak-secrets';

/** What the reading thread starts the scan thread with. */
export interface ScanThreadData {
  /** The dev bootstrap's TypeScript entry (thread-entry.ts). */
  entry?: string;
  /** The nice value the thread lowers itself to (Linux); null keeps the starting thread's. */
  nice: number | null;
}

/** Reading thread → scan thread. */
export type ToScanThread =
  /** Scan `batch`; answered by `done` with the same id (and the buffer, for the next batch). */
  | { type: 'scan'; id: number; owner: number; epoch: number; batch: LineBatch }
  /** `owner`'s reading started over: its batches of an older epoch still queued are not scanned. */
  | { type: 'drop'; owner: number; epoch: number };

/** Scan thread → reading thread. */
export type FromScanThread =
  /**
   * Started, with its thread id (worker_threads) and its kernel thread id (null when unknown, or
   * its priority could not be lowered), before any batch is handed over.
   */
  | { type: 'ready'; threadId: number; tid: number | null }
  /**
   * Batch `id`'s lines are copied out: its buffer comes back for the reading thread's next batch
   * (that thread then reuses a few buffers instead of faulting in fresh memory for every batch).
   */
  | { type: 'taken'; id: number; buf: ArrayBuffer }
  /** Batch `id` scanned (`result`), or dropped unscanned (no `result`). */
  | { type: 'done'; id: number; result?: BatchResult };
