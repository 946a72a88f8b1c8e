/**
 * The main thread's record of branch outcomes by idempotency key: it outlives a worker restart
 * (the worker's own record, BranchIdempotency, dies with it). A key whose write was in flight
 * when its worker stopped has an unknown outcome: its caller is told so (`unknown_outcome`),
 * and a repeat asks the next worker to look for that very directive in the file (written by the
 * dead worker, or not) before it appends: the branch is appended at most once either way.
 */
import { createHash } from 'node:crypto';
import type { BranchRequest, BranchResult } from '../../shared/api';
import { ApiError } from '../api/api-backend';
import { MAX_REMEMBERED_WRITES } from '../api/branch-idempotency';

/** Failures after which nothing was written: the key is forgotten, so the same submission may try again. */
const NOTHING_WRITTEN: ReadonlySet<string> = new Set(['bad_request', 'not_found', 'locked', 'refused']);

interface Outcome {
  fingerprint: string;
  /** When the first attempt was sent: a directive the file got since then may be its write. */
  since: number;
  state: 'running' | 'done' | 'unknown';
  outcome: Promise<BranchResult>;
}

/** One attempt at the write; `recoverSince`: an earlier attempt's outcome is unknown, look for its line first. */
export type BranchAttempt = (recoverSince?: number) => Promise<BranchResult>;

/** Branch outcomes by (session, idempotency key); bounded, oldest settled ones forgotten first. */
export class BranchOutcomes {
  private readonly byKey = new Map<string, Outcome>();

  constructor(private readonly capacity = MAX_REMEMBERED_WRITES) {}

  /** Runs `attempt` unless this key already has an outcome (or one running); either way resolves with the one outcome. */
  run(req: BranchRequest, attempt: BranchAttempt): Promise<BranchResult> {
    const slot = `${req.key}\n${req.idempotencyKey}`;
    const fingerprint = createHash('sha256').update(req.parentId).update('\0').update(req.text).digest('hex');
    const seen = this.byKey.get(slot);
    if (seen && seen.fingerprint !== fingerprint) {
      return Promise.reject(
        new ApiError(
          'bad_request',
          `idempotency key ${req.idempotencyKey} was already used for another branch; nothing was written`,
        ),
      );
    }
    if (seen && seen.state !== 'unknown') return seen.outcome;
    const since = seen ? seen.since : Date.now();
    const o: Outcome = { fingerprint, since, state: 'running', outcome: attempt(seen ? since : undefined) };
    this.byKey.delete(slot); // re-inserted: the newest last, for eviction
    this.byKey.set(slot, o);
    o.outcome.then(
      () => (o.state = 'done'),
      (e: unknown) => {
        if (this.byKey.get(slot) !== o) return;
        // A refusal wrote nothing: the same submission may try again (the agent let go of its lock).
        if (e instanceof ApiError && NOTHING_WRITTEN.has(e.code)) this.byKey.delete(slot);
        // Anything else may have written the line: a repeat looks for it before it appends.
        else o.state = 'unknown';
      },
    );
    this.evict();
    return o.outcome;
  }

  /** How many keys are remembered (tests). */
  get size(): number {
    return this.byKey.size;
  }

  private evict(): void {
    if (this.byKey.size <= this.capacity) return;
    for (const [slot, o] of this.byKey) {
      if (o.state !== 'running') {
        this.byKey.delete(slot);
        if (this.byKey.size <= this.capacity) return;
      }
    }
  }
}
