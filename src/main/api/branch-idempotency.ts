/**
 * A branch is appended at most once per idempotency key. A client whose connection
 * dropped before the reply cannot know whether its write happened; if it asks again
 * with the same key it gets the first outcome (or waits for the one still running)
 * instead of a second line in the agent's ledger.
 */
import { createHash } from 'node:crypto';
import type { BranchResult, SessionKey } from '../../shared/api';
import { ApiError } from './api-backend';

/** Keys remembered (per backend, across sessions): far more than one page ever has in flight. */
export const MAX_REMEMBERED_WRITES = 1024;

/** Failures after which nothing was written: the key is forgotten, so the same submission may try again. */
const NOTHING_WRITTEN: ReadonlySet<string> = new Set(['bad_request', 'not_found', 'locked', 'refused']);

interface Remembered {
  /** What was asked (hashed: a directive may be a megabyte), so a key reused for another write is refused. */
  fingerprint: string;
  outcome: Promise<BranchResult>;
  settled: boolean;
}

/** The outcome of every recent branch by (session, key); bounded, oldest settled ones forgotten first. */
export class BranchIdempotency {
  private readonly byKey = new Map<string, Remembered>();

  constructor(private readonly capacity = MAX_REMEMBERED_WRITES) {}

  /** Runs `append` unless this (session, key) already ran or runs; either way resolves with the one outcome. */
  run(
    req: { key: SessionKey; parentId: string; text: string; idempotencyKey: string },
    append: () => Promise<BranchResult>,
  ): Promise<BranchResult> {
    // The key as sent, byte for byte: normalising it (case) would make two submissions one.
    const slot = `${req.key}\n${req.idempotencyKey}`;
    const fingerprint = createHash('sha256').update(req.parentId).update('\0').update(req.text).digest('hex');
    const seen = this.byKey.get(slot);
    if (seen) {
      if (seen.fingerprint !== fingerprint) {
        return Promise.reject(
          new ApiError(
            'bad_request',
            `idempotency key ${req.idempotencyKey} was already used for another branch; nothing was written`,
          ),
        );
      }
      return seen.outcome;
    }
    const entry: Remembered = { fingerprint, outcome: append(), settled: false };
    this.byKey.set(slot, entry);
    entry.outcome.then(
      () => (entry.settled = true),
      (e: unknown) => {
        entry.settled = true;
        // A refusal wrote nothing: let the same submission try again (say, once the agent let go of its lock).
        if (e instanceof ApiError && NOTHING_WRITTEN.has(e.code) && this.byKey.get(slot) === entry) {
          this.byKey.delete(slot);
        }
      },
    );
    this.evict();
    return entry.outcome;
  }

  /** How many keys are remembered (tests). */
  get size(): number {
    return this.byKey.size;
  }

  private evict(): void {
    if (this.byKey.size <= this.capacity) return;
    for (const [slot, r] of this.byKey) {
      if (r.settled) {
        this.byKey.delete(slot);
        if (this.byKey.size <= this.capacity) return;
      }
    }
  }
}
