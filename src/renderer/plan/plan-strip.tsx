import { useEffect, useMemo, useReducer, useRef, useState, type MouseEvent } from 'react';
import type { LeafRequest, LeafView } from '../../shared/api';
import { ownValue } from '../../shared/own-key';
import { mergeSegments, turnAt, type StripSegment } from '../../shared/plan-strip';
import { useApi } from '../api/api-context';
import { PLAN_PAGE, planTurnsSource, type PlanTurnsSource } from '../data/plan-sources';
import { useAppStore } from '../store/app-store';
import { fmtInt } from '../util/format';

/** Narrowest segment drawn (px, its 1 px gap included): the strip holds width / this of them. */
const MIN_SEGMENT_PX = 4;
/**
 * Segments of at most this many turns find the turn under the pointer by tokens (their rows are
 * read whole); a longer one by count, reading only the row under the pointer.
 */
const WEIGHTED_MAX = 2000;

const turnTitle = (r: { turn_id: string; fidelity: string; tokens: number }, overridden: boolean): string =>
  `turn ${r.turn_id} · ${r.fidelity} · ${fmtInt(r.tokens)} tok${overridden ? ' (override)' : ''} — click: go to the turn`;

/** The turn of `seg` under the point `fraction` of the way across it, when the rows that takes are here. */
function turnUnder(src: PlanTurnsSource, seg: StripSegment, fraction: number): number | undefined {
  if (seg.count === 1) return seg.first;
  if (seg.count > WEIGHTED_MAX) return seg.first + Math.min(seg.count - 1, Math.floor(fraction * seg.count));
  for (let i = seg.first; i < seg.first + seg.count; i++) if (!src.get(i)) return undefined;
  return turnAt(seg, fraction, (i) => src.get(i)?.tokens ?? 0);
}

/** Fetches (or marks as wanted) the rows `turnUnder` reads for this point. */
function rowsFor(src: PlanTurnsSource, seg: StripSegment, fraction: number): Promise<unknown> {
  if (seg.count === 1) return Promise.resolve();
  if (seg.count > WEIGHTED_MAX) return src.load(turnUnder(src, seg, fraction) ?? seg.first);
  const loads: Promise<unknown>[] = [];
  for (let i = seg.first; i < seg.first + seg.count; i += PLAN_PAGE) loads.push(src.load(i));
  loads.push(src.load(seg.first + seg.count - 1));
  return Promise.all(loads);
}

/**
 * The plan strip: closed turns by fidelity, widths by tokens, in its box at any turn count. The
 * view brings the plan as at most STRIP_SEGMENTS segments; they merge further to one per
 * MIN_SEGMENT_PX. The tooltip names the turn under the pointer (its rows are read as it
 * points); a click goes to that turn (its directive is pinned: tree and History show it).
 */
export function PlanStrip({ view, request }: { view: LeafView | null; request: LeafRequest | null }) {
  const api = useApi();
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
  const segs = useMemo(() => (view ? mergeSegments(view.plan.strip, width / MIN_SEGMENT_PX) : []), [view, width]);
  const source = useMemo(() => (view && request ? planTurnsSource(api, request, view) : null), [api, request, view]);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => source?.subscribe(rerender), [source]);
  const [hover, setHover] = useState<{ first: number; fraction: number } | null>(null);
  const turns = view?.plan.turns ?? 0;
  const isOverridden = (id: string) => !!request && ownValue(request.overrides, id) !== undefined;

  const fractionOf = (e: MouseEvent<HTMLButtonElement>): number => {
    const r = e.currentTarget.getBoundingClientRect();
    return r.width > 0 ? Math.min(1, Math.max(0, (e.clientX - r.left) / r.width)) : 0;
  };
  const segTitle = (seg: StripSegment): string => {
    if (seg.count === 1)
      return turnTitle({ turn_id: seg.firstTurnId, fidelity: seg.fidelity, tokens: seg.tokens }, seg.overridden);
    return `turns ${seg.first + 1}–${seg.first + seg.count} of ${turns} · ${seg.mixed ? 'mixed, mostly ' : ''}${seg.fidelity} · ${fmtInt(seg.tokens)} tok — point at one, click to go to it`;
  };
  const titleOf = (seg: StripSegment): string => {
    if (!source || hover?.first !== seg.first || seg.count === 1) return segTitle(seg);
    const i = turnUnder(source, seg, hover.fraction);
    const row = i === undefined ? undefined : source.get(i);
    return row ? turnTitle(row, isOverridden(row.turn_id)) : segTitle(seg);
  };

  return (
    <div
      className="plan-strip"
      ref={box}
      role="group"
      aria-label={`Plan strip: ${turns} closed turns by fidelity`}
      data-turns={turns}
    >
      {segs.map((seg) => (
        <button
          key={seg.first}
          type="button"
          className={`strip-seg fid-${seg.fidelity}${seg.mixed ? ' mixed' : ''}${seg.overridden ? ' overridden' : ''}`}
          style={{ flexGrow: Math.max(1, seg.tokens) }}
          title={titleOf(seg)}
          aria-label={
            seg.count === 1
              ? `turn ${seg.firstTurnId} ${seg.fidelity}`
              : `segment of turns ${seg.first + 1} to ${seg.first + seg.count}, ${seg.fidelity}`
          }
          onMouseMove={(e) => {
            const fraction = fractionOf(e);
            setHover({ first: seg.first, fraction });
            if (source) void rowsFor(source, seg, fraction);
          }}
          onMouseLeave={() => setHover(null)}
          onClick={(e) => {
            // A click from the keyboard has no pointer position: it goes to the segment's first turn.
            if (e.detail === 0 || !source) return pin({ entries: [seg.firstTurnId], messages: [] });
            const fraction = fractionOf(e);
            void rowsFor(source, seg, fraction).then(() => {
              const i = turnUnder(source, seg, fraction);
              const id = i === undefined ? undefined : source.get(i)?.turn_id;
              pin({ entries: [id ?? seg.firstTurnId], messages: [] });
            });
          }}
        />
      ))}
    </div>
  );
}
