import type { LeafProjection } from '../../shared/api';
import type { Fidelity } from '../../shared/ledger-types';
import { shortId } from '../util/format';

/** One aligned row of a plan comparison: a turn (or a fixed part) on both sides. */
export interface TurnRow {
  key: string;
  label: string;
  a: { fidelity: Fidelity; tokens: number } | null;
  b: { fidelity: Fidelity; tokens: number } | null;
}

function perTurn(p: LeafProjection): Map<string, { label: string; fidelity: Fidelity; tokens: number }> {
  const m = new Map<string, { label: string; fidelity: Fidelity; tokens: number }>();
  for (const msg of p.messages) {
    const key = msg.turn_id ?? `(${msg.fidelity})`;
    const cur = m.get(key);
    if (cur) cur.tokens += msg.tokens;
    else
      m.set(key, {
        label: msg.turn_id ? `turn ${shortId(msg.turn_id)}` : msg.fidelity,
        fidelity: msg.fidelity,
        tokens: msg.tokens,
      });
  }
  return m;
}

/** Aligns two projections by turn id, in the order the turns appear (A's first, then B's new ones in place). */
export function alignTurns(a: LeafProjection, b: LeafProjection): TurnRow[] {
  const ma = perTurn(a);
  const mb = perTurn(b);
  const order: string[] = [...ma.keys()];
  let insertAt = 0;
  for (const k of mb.keys()) {
    const i = order.indexOf(k);
    if (i >= 0) insertAt = i + 1;
    else order.splice(insertAt++, 0, k);
  }
  // The tail always closes the context: keep it last.
  const tail = order.indexOf('(tail)');
  if (tail >= 0) order.push(...order.splice(tail, 1));
  return order.map((key) => {
    const x = ma.get(key);
    const y = mb.get(key);
    return {
      key,
      label: (x ?? y)!.label,
      a: x ? { fidelity: x.fidelity, tokens: x.tokens } : null,
      b: y ? { fidelity: y.fidelity, tokens: y.tokens } : null,
    };
  });
}

/** The projected context as lines of text, for the diff view. */
export function projectionLines(p: LeafProjection): string[] {
  const out: string[] = [];
  for (const m of p.messages) {
    out.push(`── ${m.role} · ${m.fidelity}${m.turn_id ? ` · turn ${m.turn_id}` : ''} · ${m.tokens} tok`);
    for (const b of m.content) {
      const blk = b as { type?: string; text?: string; name?: string; input?: unknown; content?: string };
      if (blk.type === 'text' || blk.type === 'thinking') out.push(...String(blk.text ?? '').split('\n'));
      else if (blk.type === 'tool_use') out.push(`tool_use ${blk.name} ${JSON.stringify(blk.input)}`);
      else if (blk.type === 'tool_result') out.push(...String(blk.content ?? '').split('\n'));
      else out.push(JSON.stringify(b));
    }
  }
  return out;
}
