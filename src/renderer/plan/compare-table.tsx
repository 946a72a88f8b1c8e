import type { LeafProjection } from '../../shared/api';
import { FidelityBadge } from '../leaf/fidelity-badge';
import { fmtInt } from '../util/format';
import { alignTurns } from './turn-rows';

const delta = (n: number) => (n === 0 ? '±0' : n > 0 ? `+${fmtInt(n)}` : `−${fmtInt(-n)}`);

/** Per-turn rows of two projections side by side, with token deltas (B − A); the labels title the columns. */
export function CompareTable({
  a,
  b,
  labelA,
  labelB,
}: {
  a: LeafProjection;
  b: LeafProjection;
  labelA: string;
  labelB: string;
}) {
  const rows = alignTurns(a, b);
  return (
    <div className="compare-table-scroll">
      <table className="compare-table" aria-label="Per-turn comparison">
        <thead>
          <tr>
            <th>turn</th>
            <th colSpan={2} title={`A · ${labelA}`}>
              A
            </th>
            <th colSpan={2} title={`B · ${labelB}`}>
              B
            </th>
            <th title="B − A">Δ tok</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const d = (r.b?.tokens ?? 0) - (r.a?.tokens ?? 0);
            return (
              <tr key={r.key} data-turn={r.key} className={r.a?.fidelity !== r.b?.fidelity ? 'differs' : undefined}>
                <td title={r.key}>{r.label}</td>
                <td>{r.a ? <FidelityBadge fidelity={r.a.fidelity} /> : '—'}</td>
                <td className="num">{r.a ? fmtInt(r.a.tokens) : ''}</td>
                <td>{r.b ? <FidelityBadge fidelity={r.b.fidelity} /> : '—'}</td>
                <td className="num">{r.b ? fmtInt(r.b.tokens) : ''}</td>
                <td className={`num delta${d > 0 ? ' up' : d < 0 ? ' down' : ''}`}>{delta(d)}</td>
              </tr>
            );
          })}
          <tr className="total">
            <td>total</td>
            <td />
            <td className="num">{fmtInt(a.tokens.total)}</td>
            <td />
            <td className="num">{fmtInt(b.tokens.total)}</td>
            <td className="num delta">{delta(b.tokens.total - a.tokens.total)}</td>
          </tr>
          <tr className="total">
            <td>over budget</td>
            <td />
            <td className="num">{fmtInt(a.over_budget)}</td>
            <td />
            <td className="num">{fmtInt(b.over_budget)}</td>
            <td className="num delta">{delta(b.over_budget - a.over_budget)}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}
