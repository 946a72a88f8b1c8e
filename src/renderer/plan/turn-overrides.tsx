import type { LeafView } from '../../shared/api';
import type { TurnOverride } from '../../shared/ledger-types';
import { ownValue } from '../../shared/own-key';
import { FidelityBadge } from '../leaf/fidelity-badge';
import { fmtInt, shortId } from '../util/format';
import './compare.css';

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

interface Props {
  view: LeafView;
  overrides: Record<string, TurnOverride>;
  onOverride: (turnId: string, o: TurnOverride | null) => void;
  onClear: () => void;
  /** Lights a turn's directive in the History pane (side A only). */
  onPin?: (turnId: string) => void;
  /** Prefix of the table's and menus' names ("B " for side B of a comparison). */
  labelPrefix?: string;
}

/**
 * Every closed turn of a projection, named by its directive, with a menu to force its fidelity.
 * The menus offer only what the plan could honour: a Card where the chain has the turn's card,
 * packets that cover the turn. Used by the turns panel (side A) and by compare (side B).
 */
export function TurnOverrides({ view, overrides, onOverride, onClear, onPin, labelPrefix = '' }: Props) {
  const rows = view.projection.plan;
  const options = new Map(view.turnOptions.map((t) => [t.turn_id, t]));
  const count = Object.keys(overrides).length;
  return (
    <div className="turn-overrides">
      {rows.length === 0 && <p className="dim">No closed turns on this chain.</p>}
      <table aria-label={`${labelPrefix}Plan rows`}>
        <thead>
          <tr>
            <th>turn</th>
            <th>directive</th>
            <th>fidelity</th>
            <th>tokens</th>
            <th>override</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const o = ownValue(overrides, r.turn_id);
            const opt = options.get(r.turn_id);
            return (
              <tr key={r.turn_id} data-turn={r.turn_id} className={o ? 'overridden' : undefined}>
                <td>
                  {onPin ? (
                    <button
                      type="button"
                      className="link"
                      title={`${r.turn_id}: light the turn's directive`}
                      onClick={() => onPin(r.turn_id)}
                    >
                      {shortId(r.turn_id)}
                    </button>
                  ) : (
                    <span title={r.turn_id}>{shortId(r.turn_id)}</span>
                  )}
                </td>
                <td className="directive" title={opt?.directive}>
                  {opt?.directive || <span className="dim">(no text)</span>}
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
                    aria-label={`${labelPrefix}Override turn ${r.turn_id}`}
                    value={encode(o)}
                    onChange={(e) => onOverride(r.turn_id, decode(e.target.value))}
                  >
                    <option value="">plan&apos;s choice</option>
                    <option value="full">Full</option>
                    {(opt?.hasCard || o?.fidelity === 'card') && <option value="card">Card</option>}
                    {opt?.packets.map((p) => (
                      <option key={p.packet_id} value={`packet:${p.packet_id}`}>
                        Packet {shortId(p.packet_id)} ({shortId(p.first_turn_id)} … {shortId(p.last_turn_id)})
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {count > 0 && (
        <button type="button" onClick={onClear}>
          clear {count} override{count === 1 ? '' : 's'}
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
