import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useReducer, useRef } from 'react';
import type { LeafRequest, LeafView, PlanTurn } from '../../shared/api';
import type { TurnOverride } from '../../shared/ledger-types';
import { ownValue } from '../../shared/own-key';
import { useApi } from '../api/api-context';
import { planTurnsSource } from '../data/plan-sources';
import { FidelityBadge } from '../leaf/fidelity-badge';
import { fmtInt, shortId } from '../util/format';
import './compare.css';

/** Estimated height of a plan row (rows are measured once drawn). */
const ROW_ESTIMATE = 27;

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
  /** The request `view` answers: its rows are read with it. */
  request: LeafRequest;
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
 * packets that cover the turn. Rows are read by page as they scroll into view (a plan can have
 * thousands of turns). Used by the turns panel (side A) and by compare (side B).
 */
export function TurnOverrides({ view, request, overrides, onOverride, onClear, onPin, labelPrefix = '' }: Props) {
  const api = useApi();
  const source = useMemo(() => planTurnsSource(api, request, view), [api, request, view]);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => source.subscribe(rerender), [source]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const total = view.plan.turns;
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler in this build; the virtualizer re-renders on its own
  const virt = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 12,
  });
  const items = virt.getVirtualItems();
  const first = items[0]?.index ?? -1;
  const last = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (first >= 0) source.ensure(first, last);
  }, [source, first, last]);
  const top = items[0]?.start ?? 0;
  const bottom = Math.max(0, virt.getTotalSize() - (items.at(-1)?.end ?? 0));
  const count = Object.keys(overrides).length;

  const row = (r: PlanTurn, index: number) => {
    const o = ownValue(overrides, r.turn_id);
    return (
      <tr
        key={index}
        data-index={index}
        ref={virt.measureElement}
        data-turn={r.turn_id}
        className={o ? 'overridden' : undefined}
      >
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
        <td className="directive" title={r.directive}>
          {r.directive || <span className="dim">(no text)</span>}
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
            {(r.hasCard || o?.fidelity === 'card') && <option value="card">Card</option>}
            {r.packets.map((p) => (
              <option key={p.packet_id} value={`packet:${p.packet_id}`}>
                Packet {shortId(p.packet_id)} ({shortId(p.first_turn_id)} … {shortId(p.last_turn_id)})
              </option>
            ))}
          </select>
        </td>
      </tr>
    );
  };

  return (
    <div className="turn-overrides">
      {total === 0 && <p className="dim">No closed turns on this chain.</p>}
      {source.error && (
        <p className="error" role="alert">
          {source.error}
        </p>
      )}
      <div className="turn-overrides-scroll" ref={scrollRef}>
        <table aria-label={`${labelPrefix}Plan rows`} aria-rowcount={total + 1}>
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
            {top > 0 && (
              <tr className="spacer" aria-hidden="true">
                <td colSpan={5} style={{ height: top }} />
              </tr>
            )}
            {items.map((it) => {
              const r = source.get(it.index);
              return r ? (
                row(r, it.index)
              ) : (
                <tr key={it.index} data-index={it.index} ref={virt.measureElement} className="placeholder">
                  <td colSpan={5}>…</td>
                </tr>
              );
            })}
            {bottom > 0 && (
              <tr className="spacer" aria-hidden="true">
                <td colSpan={5} style={{ height: bottom }} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
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
