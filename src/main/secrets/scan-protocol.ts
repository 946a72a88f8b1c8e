/**
 * Messages between a reading thread (scan-thread.ts) and the secret scan thread
 * (secret-scan-worker.ts). Plain data; each batch's buffer is transferred there and back, so
 * the reading thread never copies them more than once. Only our own threads talk on this channel.
 */
import type { BatchResult, LineBatch, LineFile } from './scan-batch';
import type { GateKind } from './secret-gate-wasm';

/** The scan thread's name (Linux: its `comm`), so tools can tell it from the backend thread. */
export const THREAD_NAME = 'vak-secrets';
/** Its lint thread's (the parse and the preset, at the lowest priority); Linux keeps 15 bytes. */
export const LINT_THREAD_NAME = 'vak-secret-lint';

/**
 * The lint thread's heap limits. A worker's defaults (a 48 MiB young generation, a 4 GiB old one
 * that V8 lets grow by up to 4× between collections) let it, parsing most of a big session's
 * gated lines after the read, commit ~170 MiB that the serving process then keeps. Its young
 * generation is 8 MB: what it parses lives for one line, and V8 keeps a young generation at the
 * largest it grew to until the thread has been quiet for seconds. At 16 MB the serving process
 * held ~5 MiB more after a 100 MB open, for no faster a scan; at 4 MB the scan took 15% longer
 * (docs/performance.md, stops 27 and 31). The scan thread keeps its defaults: its heap stays
 * small, and a smaller young generation there collected more often during a first open, on the
 * read's cores. The old generation stays far above what a backlog of gated lines needs on the
 * heap (their ends, line numbers and ids): a thread out of heap loses the lines it held unscanned.
 */
export const LINT_THREAD_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 1024 } as const;

/**
 * The scan thread copies each batch's passing lines into a buffer of this size (or of their size,
 * when bigger). Those the lint thread hands back are reused: a first open's read then copies into
 * memory faulted in ahead (touching fresh pages costs this machine more than the copy) rather
 * than into fresh memory for every batch.
 */
export const GATED_BYTES = 128 << 10;
/**
 * How many of those buffers' bytes are made, and their pages touched, when the thread starts, and
 * kept for its life. A backlog past them takes fresh buffers, dropped once linted: a first open's,
 * while the read is in progress (up to `HELD_BYTES` in secret-scan-worker.ts), or a big session's
 * deferred lines, taken up to half of that (`pump`). With all of `HELD_BYTES` kept, the serving
 * process held 5 MiB more after a 100 MB open, for no faster a scan (docs/performance.md, stop 31).
 */
export const KEPT_GATED_BYTES = 3 << 20;

/** What the reading thread starts the scan thread with. */
export interface ScanThreadData {
  /** The dev bootstrap's TypeScript entry (thread-entry.ts). */
  entry?: string;
  /** The entry file as started (`new Worker`'s), so the scan thread starts its lint thread from it. */
  file: string;
  /** The nice value the lint thread lowers itself to (Linux); null keeps the starting thread's. */
  nice: number | null;
  /** Started ahead of any batch (ScanThread.prepare): run once on a made-up batch to load and optimize the code. */
  warm?: boolean;
  /** The gated bytes the lint thread may hold before the scan thread lets them go to be read back (tests); unset: its default. */
  heldBytes?: number;
  /** The lint thread's wait after a full batch (tests); unset: its default. */
  lintQuietMs?: number;
  /** Set on the lint thread. */
  role?: 'lint';
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
   * Started, with its thread id (worker_threads), before any batch is handed over; `gate`: the
   * gate it runs (secret-gate-wasm.ts: WebAssembly, or JavaScript where that cannot load).
   */
  | { type: 'ready'; threadId: number; gate: GateKind }
  /** Its lint thread's kernel id, once that lowered its priority (null: unknown, or it could not). */
  | { type: 'priority'; tid: number | null }
  /**
   * Batch `id`'s lines are copied out: its buffer comes back for the reading thread's next batch
   * (that thread then reuses a few buffers instead of faulting in fresh memory for every batch).
   */
  | {
      type: 'taken';
      id: number;
      buf: ArrayBuffer;
      /** Buffers for gated lines the scan thread made so far beyond those it made ahead (none while they last). */
      gatedMade: number;
    }
  /** Batch `id` scanned (`result`), or dropped unscanned (no `result`). */
  | { type: 'done'; id: number; result?: BatchResult };

/**
 * Lines the lint thread reads back from their file (the batch then has an empty buffer, its `ends`
 * still the lines' lengths added up): each line's offset and a hash of the bytes that were read.
 */
export interface ReadBack {
  file: LineFile;
  offsets: number[];
  hashes: number[];
}

/**
 * Scan thread → lint thread: a batch's lines that passed the gate (their own buffer, or where to
 * read them back; `bulk`: the batch was sent full, so a read is in progress), or a drop.
 */
export type ToLintThread =
  | (Extract<ToScanThread, { type: 'scan' }> & {
      gatedOut: number;
      bulk: boolean;
      readBack?: ReadBack;
      /** A batch whose lines were left in the file (`inFile`): how many lines were read from it, and how many of them had changed (not scanned). */
      inFile?: { read: number; changed: number };
    })
  | Extract<ToScanThread, { type: 'drop' }>;

/**
 * Lint thread → scan thread, which passes `done` on as it is. `linted`: a batch's buffer, scanned,
 * handed back (transferred) so the scan thread copies the next gated lines into it: the lint
 * thread's heap is big and collected seldom, so a buffer it merely dropped would stay resident
 * until then.
 */
export type FromLintThread =
  | { type: 'priority'; tid: number | null }
  | { type: 'linted'; buf: ArrayBuffer }
  | Extract<FromScanThread, { type: 'done' }>;
