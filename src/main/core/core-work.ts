/**
 * Counted work of the ledger core, summed over open sessions (Ledger.stats, TurnCache.stats): what
 * The work-count invariants read (never timings), and what the worker reports in its stats.
 */
import type { LedgerStats } from './ledger-options';
import type { TurnCacheStats } from './turn-cache';

export type CoreWork = LedgerStats & TurnCacheStats;

/** No work yet. */
export function noCoreWork(): CoreWork {
  return {
    bytesRead: 0,
    linesParsed: 0,
    entriesMaterialised: 0,
    turnsProjected: 0,
    turnsReused: 0,
    turnsNoted: 0,
  };
}

/** Adds one session's counts to `sum`. */
export function addCoreWork(sum: CoreWork, ledger: LedgerStats, turns: TurnCacheStats): void {
  sum.bytesRead += ledger.bytesRead;
  sum.linesParsed += ledger.linesParsed;
  sum.entriesMaterialised += ledger.entriesMaterialised;
  sum.turnsProjected += turns.turnsProjected;
  sum.turnsReused += turns.turnsReused;
  sum.turnsNoted += turns.turnsNoted;
}
