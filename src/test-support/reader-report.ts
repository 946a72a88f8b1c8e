import type { Ledger } from '../main/core/ledger';
import { treeReport, verifyReport } from '../main/core/reports';

/**
 * Everything the reader reports, for comparing two readings of the same bytes (chunked, or with
 * the hash check deferred). The warnings come first: asking for them finishes a deferred check.
 */
export function readerReport(l: Ledger): unknown {
  const verify = verifyReport(l);
  const ix = l.index;
  return {
    verify,
    tree: treeReport(l),
    offsets: Array.from(ix.offset.subarray(0, ix.count)),
    lengths: Array.from(ix.length.subarray(0, ix.count)),
    flags: Array.from(ix.flags.subarray(0, ix.count)),
    lastLineHash: l.lastLineHash,
    pending: l.lastPhysicalLine(),
  };
}
