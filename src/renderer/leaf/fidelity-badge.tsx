import type { Fidelity } from '../../shared/ledger-types';

/** The fidelity word in its colour (the same colours in the plan bar and the tree's turn markers). */
export function FidelityBadge({ fidelity }: { fidelity: Fidelity }) {
  return <span className={`fid-badge fid-${fidelity}`}>{fidelity}</span>;
}
