import type { TurnOverride } from '../../shared/ledger-types';
import { FidelityBadge } from '../leaf/fidelity-badge';
import { useAppStore } from '../store/app-store';
import { fmtInt, shortId } from '../util/format';
import { ownValue } from '../../shared/own-key';

const encode = (o: TurnOverride | undefined): string =>
  !o ? '' : o.fidelity === 'packet' ? `packet:${o.packet_id}` : o.fidelity;
const decode = (v: string): TurnOverride | null =>
  v === ''
    ? null
    : v.startsWith('packet:')
      ? { fidelity: 'packet', packet_id: v.slice(7) }
      : v === 'card'
        ? { fidelity: 'card' }
        : { fidelity: 'full' };

/** Every closed turn of the plan, each with a menu to force its fidelity. */
export function PlanPanel() {
  const view = useAppStore((s) => s.leafView);
  const overrides = useAppStore((s) => s.overrides);
  const setOverride = useAppStore((s) => s.setOverride);
  const pin = useAppStore((s) => s.pin);
  const clearOverrides = useAppStore((s) => s.clearOverrides);
  if (!view) return <p className="dim">No leaf selected.</p>;
  const rows = view.projection.plan;
  const options = new Map(view.turnOptions.map((t) => [t.turn_id, t]));
  return (
    <div className="plan-panel">
      {rows.length === 0 && <p className="dim">No closed turns on this chain.</p>}
      <table aria-label="Plan rows">
        <thead>
          <tr>
            <th>turn</th>
            <th>fidelity</th>
            <th>tokens</th>
            <th>override</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.turn_id} data-turn={r.turn_id}>
              <td>
                <button
                  type="button"
                  className="link"
                  title={`${r.turn_id}: light the turn's directive`}
                  onClick={() => pin({ entries: [r.turn_id], messages: [] })}
                >
                  {shortId(r.turn_id)}
                </button>
              </td>
              <td>
                <FidelityBadge fidelity={r.fidelity} />
                {r.packet_id && (
                  <span className="dim" title={r.packet_id}>
                    {' '}
                    {shortId(r.packet_id)}
                  </span>
                )}
              </td>
              <td className="num">{fmtInt(r.tokens)}</td>
              <td>
                <select
                  aria-label={`Override turn ${r.turn_id}`}
                  value={encode(ownValue(overrides, r.turn_id))}
                  onChange={(e) => setOverride(r.turn_id, decode(e.target.value))}
                >
                  <option value="">plan's choice</option>
                  <option value="full">Full</option>
                  {/* Only what the plan could honour: a Card where the chain has the turn's card, packets that cover it. */}
                  {(options.get(r.turn_id)?.hasCard || ownValue(overrides, r.turn_id)?.fidelity === 'card') && (
                    <option value="card">Card</option>
                  )}
                  {options.get(r.turn_id)?.packets.map((p) => (
                    <option key={p.packet_id} value={`packet:${p.packet_id}`}>
                      Packet {shortId(p.packet_id)} ({shortId(p.first_turn_id)} … {shortId(p.last_turn_id)})
                    </option>
                  ))}
                </select>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {Object.keys(overrides).length > 0 && (
        <button type="button" onClick={clearOverrides}>
          clear {Object.keys(overrides).length} override(s)
        </button>
      )}
      {view.projection.notes.map((n, i) => (
        <p key={i} className="note">
          {n}
        </p>
      ))}
    </div>
  );
}
