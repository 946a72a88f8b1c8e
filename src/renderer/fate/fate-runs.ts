import type { EntryFate, EntryFateRow, FateFidelity } from '../../shared/api-features';
import { fmtInt } from '../util/format';

/** Consecutive turn ends where the entry reached the model the same way (one fidelity, one packet or reset). */
export interface FateRun {
  /** Index of its first row, and how many rows it holds. */
  first: number;
  count: number;
  fidelity: FateFidelity;
  fromTurn: number;
  toTurn: number;
  packet: EntryFateRow['packet'];
  reset: string | null;
  tokens: number;
  /** The run starts at the first turn end where the entry is no longer sent as itself. */
  change: boolean;
}

/** What each fidelity is called on the strip. */
const FATE_LABELS: ReadonlyMap<FateFidelity, string> = new Map<FateFidelity, string>([
  ['system', 'system prompt'],
  ['preamble', 'preamble'],
  ['full', 'Full'],
  ['open', 'open turn'],
  ['card', 'Card'],
  ['packet', 'Packet'],
  ['reset', 'reset summary'],
  ['tail', 'tail'],
  ['reset-hidden', 'hidden by a reset'],
  ['not-sent', 'not sent'],
]);

export const fateLabel = (f: FateFidelity): string => FATE_LABELS.get(f) ?? f;

/** The rows of a fate as runs: 3,800 turn ends draw as the handful of runs they are. */
export function fateRuns(fate: EntryFate): FateRun[] {
  const out: FateRun[] = [];
  fate.rows.forEach((r, k) => {
    const last = out.at(-1);
    const same =
      last &&
      last.fidelity === r.fidelity &&
      last.packet?.id === r.packet?.id &&
      last.reset === r.reset &&
      fate.change?.row !== k;
    if (same) {
      last.count++;
      last.toTurn = r.turn;
    } else {
      out.push({
        first: k,
        count: 1,
        fidelity: r.fidelity,
        fromTurn: r.turn,
        toTurn: r.turn,
        packet: r.packet,
        reset: r.reset,
        tokens: r.tokens,
        change: fate.change?.row === k,
      });
    }
  });
  return out;
}

const shortId = (id: string): string => (id.length > 12 ? id.slice(0, 8) + '…' : id);

/** One run in words: which turn ends, how the entry reached the model there. */
export function runText(run: FateRun): string {
  const turns = run.fromTurn === run.toTurn ? `turn ${run.fromTurn}` : `turns ${run.fromTurn}–${run.toTurn}`;
  let how = fateLabel(run.fidelity);
  if (run.packet) how += ` ${shortId(run.packet.id)} (covers turns ${run.packet.first}–${run.packet.last})`;
  if (run.reset && run.fidelity === 'reset-hidden') how += ` ${shortId(run.reset)}`;
  const tok = run.tokens > 0 ? ` · ${fmtInt(run.tokens)} tok` : '';
  return `${turns}: ${how}${tok}`;
}
