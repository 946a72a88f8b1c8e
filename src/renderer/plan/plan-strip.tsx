import { useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import type { PlanRow } from '../../shared/ledger-types';
import { ownValue } from '../../shared/own-key';
import { useAppStore } from '../store/app-store';
import { fmtInt } from '../util/format';
import { stripSegments, turnAt, type StripSegment } from './strip-segments';

/** Narrowest segment drawn (px, its 1 px gap included): the strip holds width / this of them. */
const MIN_SEGMENT_PX = 4;

const turnTitle = (r: PlanRow, overridden: boolean): string =>
  `turn ${r.turn_id} · ${r.fidelity} · ${fmtInt(r.tokens)} tok${overridden ? ' (override)' : ''} — click: go to the turn`;

/**
 * The plan strip: closed turns by fidelity, widths by tokens, in its box at any turn count
 * (runs merge into segments, at most one per MIN_SEGMENT_PX). The tooltip names the turn under
 * the pointer; a click goes to that turn (its directive is pinned: tree and History show it).
 */
export function PlanStrip({ plan }: { plan: readonly PlanRow[] }) {
  const overrides = useAppStore((s) => s.overrides);
  const pin = useAppStore((s) => s.pin);
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(400);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth || 400));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const isOverridden = (id: string) => ownValue(overrides, id) !== undefined;
  const segs = useMemo(
    () => stripSegments(plan, (id) => ownValue(overrides, id) !== undefined, width / MIN_SEGMENT_PX),
    [plan, overrides, width],
  );
  const [hoverTitle, setHoverTitle] = useState<string | null>(null);

  const turnUnder = (e: MouseEvent<HTMLButtonElement>, seg: StripSegment): number => {
    const r = e.currentTarget.getBoundingClientRect();
    return turnAt(plan, seg, r.width > 0 ? (e.clientX - r.left) / r.width : 0);
  };
  const segTitle = (seg: StripSegment): string => {
    if (seg.count === 1) return turnTitle(plan[seg.first], seg.overridden);
    return `turns ${seg.first + 1}–${seg.first + seg.count} of ${plan.length} · ${seg.mixed ? 'mixed, mostly ' : ''}${seg.fidelity} · ${fmtInt(seg.tokens)} tok — point at one, click to go to it`;
  };

  return (
    <div
      className="plan-strip"
      ref={box}
      role="group"
      aria-label={`Plan strip: ${plan.length} closed turns by fidelity`}
      data-turns={plan.length}
    >
      {segs.map((seg) => (
        <button
          key={seg.first}
          type="button"
          className={`strip-seg fid-${seg.fidelity}${seg.mixed ? ' mixed' : ''}${seg.overridden ? ' overridden' : ''}`}
          style={{ flexGrow: Math.max(1, seg.tokens) }}
          title={hoverTitle ?? segTitle(seg)}
          aria-label={
            seg.count === 1
              ? `turn ${plan[seg.first].turn_id} ${seg.fidelity}`
              : `segment of turns ${seg.first + 1} to ${seg.first + seg.count}, ${seg.fidelity}`
          }
          onMouseMove={(e) => {
            const i = turnUnder(e, seg);
            setHoverTitle(turnTitle(plan[i], isOverridden(plan[i].turn_id)));
          }}
          onMouseLeave={() => setHoverTitle(null)}
          onClick={(e) => {
            // A click from the keyboard has no pointer position: it goes to the segment's first turn.
            const i = e.detail === 0 ? seg.first : turnUnder(e, seg);
            pin({ entries: [plan[i].turn_id], messages: [] });
          }}
        />
      ))}
    </div>
  );
}
