import type { UsageTotals } from '../../shared/ledger-types';
import { useAppStore } from '../store/app-store';
import { fmtInt } from '../util/format';

const FIELDS: [keyof UsageTotals, string][] = [
  ['input_tokens', 'input'],
  ['output_tokens', 'output'],
  ['cache_read_tokens', 'cache read'],
  ['cache_write_tokens', 'cache write'],
  ['messages', 'messages with usage'],
];

/** Usage totals of the active chain, and of all branches (labelled: abandoned branches count there only). */
export function UsagePanel() {
  const info = useAppStore((s) => s.sessionInfo);
  if (!info) return <p className="dim">No session open.</p>;
  const { activeChain, allBranches } = info.usage;
  return (
    <table className="usage-table" aria-label="Usage">
      <thead>
        <tr>
          <th />
          <th>active chain</th>
          <th>all branches (incl. abandoned)</th>
        </tr>
      </thead>
      <tbody>
        {FIELDS.map(([k, label]) => (
          <tr key={k}>
            <td>{label}</td>
            <td className="num">{fmtInt(activeChain[k])}</td>
            <td className="num">{fmtInt(allBranches[k])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
