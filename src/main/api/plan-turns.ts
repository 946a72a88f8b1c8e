/**
 * A leaf's plan as the renderer reads it: counted and drawn as a strip in every leaf view
 * (bounded, whatever the number of turns), and its rows with their override options by window
 * or by id (`getPlanTurns`), for what is on screen: the turns panel, a strip tooltip, tree rows.
 */
import type { PlanOutline, PlanTurn, PlanTurns, PlanTurnsRequest } from '../../shared/api';
import type { PlanRow } from '../../shared/ledger-types';
import { ownValue } from '../../shared/own-key';
import { planStrip, STRIP_SEGMENTS } from '../../shared/plan-strip';
import type { CancelSignal } from '../core/cancel';
import { entryPreview } from '../core/entry-preview';
import type { Ledger } from '../core/ledger';
import { PerReading } from '../core/per-reading';
import type { OpenSession } from '../library/session-cache';
import { leafContext, type LeafContext, type PlanFacts } from './leaf-context';

/** Directive previews by entry, per reading of a ledger: a leaf shares its turns with its neighbours, so each is read once. */
const previews = new PerReading<Map<number, string>>('turn previews');

function directivePreview(ledger: Ledger, i: number): string {
  const m = previews.getOrMake(ledger, () => new Map());
  let text = m.get(i);
  if (text === undefined) {
    text = entryPreview(ledger.entry(i)).text;
    m.set(i, text);
  }
  return text;
}

/** The plan's facts with its turns' positions by id: built on the first request by id (a window needs none). */
function planFacts(c: LeafContext): PlanFacts {
  if (c.memo.plan) return c.memo.plan;
  const closed = c.lp.closedTurns;
  const position = new Map(closed.map((t, k) => [t.id, k]));
  return (c.memo.plan = { closed, position, packets: c.lp.packets });
}

/** The plan of a leaf view: counts and the strip (overrides as the request names them, applied or not). */
export function planOutline(c: LeafContext, overrides: Record<string, unknown>): PlanOutline {
  if (c.memo.outline) return c.memo.outline;
  const plan = c.lp.planRows;
  const out: PlanOutline = { turns: plan.length, full: 0, card: 0, packet: 0, strip: [] };
  for (let k = 0; k < plan.length; k++) {
    const f = plan.fidelity(k);
    if (f === 'full') out.full++;
    else if (f === 'card') out.card++;
    else out.packet++;
  }
  // Most views override nothing: no lookup per turn (thousands) then.
  const none = Object.keys(overrides).length === 0;
  out.strip = planStrip(plan, (id) => !none && ownValue(overrides, id) !== undefined, STRIP_SEGMENTS);
  return (c.memo.outline = out);
}

/**
 * Plan turn k with what the plan could honour instead of it: a Card only when the chain holds its
 * turn card, a Packet only for usable packets (§6) whose range holds it — the same facts
 * the plan engine (`planClosedTurns`) checks, so the UI offers nothing it would refuse.
 */
function planTurn(ledger: Ledger, c: LeafContext, row: PlanRow, k: number): PlanTurn {
  const t = c.lp.closedTurns[k];
  return {
    ...row,
    index: k,
    directive: directivePreview(ledger, t.entries[0]),
    hasCard: c.lp.ctx.cards.has(t.id),
    packets: c.lp.packets
      .filter((p) => p.first <= k && k <= p.last)
      .map((p) => ({ packet_id: p.ref.id, first_turn_id: p.ref.firstTurnId, last_turn_id: p.ref.lastTurnId })),
  };
}

/** A window of the plan's turns, or the turns named by id (in plan order), from the cached context. */
export function planTurns(s: OpenSession, req: PlanTurnsRequest, signal?: CancelSignal): PlanTurns {
  const c = leafContext(s, req, signal);
  const plan = c.lp.planRows;
  let at: number[];
  if ('ids' in req) {
    const f = planFacts(c);
    at = [...new Set(req.ids)].flatMap((id) => {
      const k = f.position.get(id);
      return k === undefined ? [] : [k];
    });
    at.sort((a, b) => a - b);
  } else {
    const start = Math.min(req.start, plan.length);
    const end = Math.min(plan.length, start + req.count);
    at = Array.from({ length: end - start }, (_, j) => start + j);
  }
  return { total: plan.length, turns: at.map((k) => planTurn(s.ledger, c, plan.row(k), k)) };
}
