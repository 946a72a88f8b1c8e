import type { ChainItem } from '../../shared/api';
import { kindIcon, kindLabel, roleLabel } from '../tree/kind-icons';
import { fmtInt, shortId } from '../util/format';
import { asText, Fields, lightEntries, num, objAt, own, Text, type JsonObject } from './parts';
import { useChainItems } from './use-chain-items';

/** How far before the card its turn's entries are looked for (chain positions). */
const LOOK_BACK = 1500;
/** …and after it (a card can be written before the turn's last audit entries). */
const LOOK_AHEAD = 200;

/** A directive (§4): a user message that is not a control nudge. */
const isDirective = (c: ChainItem): boolean => c.kind === 'message' && c.role === 'user' && !c.control;

/**
 * §4's turn, read off the chain: its directive (the turn's id) and every entry after it up to
 * the next directive. Works for turns before a reset too (ChainItem.turnId counts only those after it).
 */
function turnEntries(items: ChainItem[], turnId: string): ChainItem[] {
  const at = items.findIndex((c) => c.id === turnId);
  if (at < 0) return [];
  const out = [items[at]];
  for (let i = at + 1; i < items.length && !isDirective(items[i]); i++) out.push(items[i]);
  return out;
}

/** §3 turn_card: what a closed turn was, in a few words, and the turn's own entries. */
export function TurnCardView({ e, pos }: { e: JsonObject; pos: number }) {
  const c = objAt(e, 'turn_card');
  const cost = objAt(c, 'cost');
  const turnId = asText(own(c, 'turn_id'));
  const answered = own(c, 'answered');
  return (
    <div className="ev ev-turn-card">
      <Fields
        rows={[
          ['asked', <Text value={own(c, 'asked')} />],
          ['did', <Text value={own(c, 'did')} />],
          ['answered', typeof answered === 'boolean' ? (answered ? 'yes' : 'no') : asText(answered)],
          ['narration', <Text value={own(c, 'narration')} />],
          ['outcome', asText(own(c, 'outcome'))],
          ['reading', asText(own(c, 'reading'))],
          [
            'cost',
            own(c, 'cost') !== undefined
              ? `${num(own(cost, 'input_tokens'))} input · ${num(own(cost, 'output_tokens'))} output tokens (measured)`
              : null,
          ],
          ['line', <Text value={own(c, 'line')} />],
        ]}
      />
      {turnId && <TurnEntries turnId={turnId} pos={pos} />}
    </div>
  );
}

function TurnEntries({ turnId, pos }: { turnId: string; pos: number }) {
  const start = Math.max(0, pos - LOOK_BACK);
  const { items, error } = useChainItems(start, pos - start + LOOK_AHEAD);
  if (error) return <p className="error">{error}</p>;
  if (!items) return <p className="dim">finding the turn's entries…</p>;
  const turn = turnEntries(items, turnId);
  if (turn.length === 0)
    return (
      <p className="dim">
        The turn {shortId(turnId)} is not on this leaf's chain within {fmtInt(LOOK_BACK)} entries of the card.
      </p>
    );
  return (
    <div className="ev-turn-entries">
      <div className="ev-sub">
        the turn's {turn.length} entries{' '}
        <button type="button" className="ev-link" onClick={() => lightEntries(turn.map((c) => c.id))}>
          light all
        </button>
      </div>
      <ol className="ev-entry-links">
        {turn.map((c) => (
          <li key={c.id}>
            <TurnEntryLink c={c} />
          </li>
        ))}
      </ol>
    </div>
  );
}

function TurnEntryLink({ c }: { c: ChainItem }) {
  return (
    <button
      type="button"
      className="ev-link ev-entry-link"
      data-link-to={c.id}
      title={`${c.id} — click to light it and scroll to it`}
      onClick={() => lightEntries([c.id])}
    >
      <span className="kind-icon">{kindIcon(c.kind)}</span>{' '}
      <span className="ev-entry-role">{c.role ? roleLabel(c.role) : kindLabel(c.kind)}</span>{' '}
      <span className="ev-entry-text">{c.text || shortId(c.id)}</span>
    </button>
  );
}
