/**
 * Search in what the model was sent: the projected context at a leaf, or at every turn end of
 * its chain ("was API_KEY ever sent?", "when did 'never touch main' stop being sent?").
 *
 * Across turn ends, each text the projection can send is looked at once — an entry at Full and
 * as recorded, a turn card's line, a packet's or a reset's summary, an intent's tail text, the
 * system prompt and tools — and only the entries that match are followed through every turn end
 * by their fate (core `entry-fate.ts`), each turn end planned once for all of them. A hit is a run
 * of turn ends in which the matching text was sent in one fidelity.
 */
import type {
  FateFidelity,
  ProjectedSearch,
  ProjectedSearchHit,
  ProjectedSearchRequest,
} from '../../shared/api-features';
import { stringifyJson } from '../../shared/json-text';
import type { Json } from '../../shared/ledger-types';
import { isObject } from '../core/entry-types';
import { entryFatesSteps, type EntryFate, type FatePlanner } from '../core/entry-fate';
import { fullMessage, verbatimMessage } from '../core/full-fidelity';
import type { Ledger } from '../core/ledger';
import { headerContext, planLeaf } from '../core/projection';
import { contentString } from '../core/tokens';
import { fold } from './case-fold';
import { snippetOf } from './text-match';

/** Entries looked at between two pauses. */
const STEP_ENTRIES = 256;

/** The searchable text of a message's blocks as sent: texts, tool calls (name and input), results. */
export function messageText(content: readonly Json[]): string {
  const out: string[] = [];
  for (const b of content) {
    if (!isObject(b)) continue;
    const t = b['type'];
    if ((t === 'text' || t === 'thinking') && typeof b['text'] === 'string') out.push(b['text']);
    else if (t === 'tool_use') out.push(String(b['name'] ?? ''), stringifyJson(b['input'] ?? null));
    else if (t === 'tool_result') out.push(contentString(b['content']));
  }
  return out.join('\n');
}

/** One text the projection may send, of one entry, and the fidelities in which it is that text. */
interface Carrier {
  pos: number;
  text: string;
  as: ReadonlySet<FateFidelity>;
}

export function* projectedSearchSteps(
  ledger: Ledger,
  leaf: number,
  req: ProjectedSearchRequest,
  plannerSteps: () => Generator<void, FatePlanner>,
  overridden: ReadonlySet<string>,
): Generator<void, ProjectedSearch> {
  const q = fold(req.query);
  const leafId = ledger.index.ids[leaf];
  if (req.across === 'leaf') return atLeaf(ledger, leaf, req, q);
  const planner = yield* plannerSteps();
  const chain = planner.scan.ctx.chain;
  const matched: Carrier[][] = [];
  const positions: number[] = [];
  let truncated = false;
  for (let pos = 0; pos < chain.length; pos++) {
    const found = carriersAt(ledger, planner, pos).filter((c) => fold(c.text).includes(q));
    if (found.length > 0) {
      if (positions.length >= req.limit) {
        truncated = true;
        break;
      }
      positions.push(pos);
      matched.push(found);
    }
    if (pos % STEP_ENTRIES === STEP_ENTRIES - 1) yield;
  }
  const fates =
    positions.length > 0
      ? yield* entryFatesSteps(ledger, planner, positions, req.profile.bytes_per_token, overridden)
      : [];
  const hits = fates.flatMap((f, k) => runsOf(f, matched[k], q));
  const sent = hits.map((h) => [h.fromTurn, h.toTurn]).flat();
  return {
    query: req.query,
    across: 'turn-ends',
    leaf: leafId,
    turnEnds: countTurnEnds(planner, chain.length),
    hits,
    firstSent: sent.length > 0 ? Math.min(...sent) : null,
    lastSent: sent.length > 0 ? Math.max(...sent) : null,
    truncated,
  };
}

function countTurnEnds(planner: FatePlanner, chainLength: number): number {
  let n = 0;
  let last = -1;
  for (const s of planner.scan.segments) {
    n += s.turns.length;
    if (s.turns.length > 0) last = s.turns[s.turns.length - 1].lastPos;
  }
  return last === chainLength - 1 ? n : n + 1;
}

/** The texts entry `pos` may be sent as. */
function carriersAt(ledger: Ledger, planner: FatePlanner, pos: number): Carrier[] {
  const ctx = planner.scan.ctx;
  const i = ctx.chain[pos];
  const kind = ledger.index.kindName(i);
  const e =
    kind === 'message' || kind === 'header' || kind === 'compaction' || kind === 'intent' || kind === 'turn_card'
      ? ledger.entry(i)
      : null;
  if (!e) return [];
  switch (e.kind) {
    case 'header': {
      if (pos !== 0) return [];
      const h = headerContext(ledger);
      return [{ pos, text: h.system + '\n' + stringifyJson(h.tools), as: new Set(['system']) }];
    }
    case 'message': {
      const out: Carrier[] = [];
      const v = verbatimMessage(e);
      if (v) out.push({ pos, text: messageText(v.content), as: new Set(['open', 'preamble']) });
      const f = fullMessage(ledger, ctx, pos);
      if (f) out.push({ pos, text: messageText(f.content), as: new Set(['full']) });
      return out;
    }
    case 'turn_card':
      return [{ pos, text: '[turn card] ' + e.turn_card.line, as: new Set(['card']) }];
    case 'compaction':
      if (e.reset) return [{ pos, text: '[summary] ' + e.reset.summary, as: new Set(['reset']) }];
      return e.packet ? [{ pos, text: e.packet.summary, as: new Set(['packet']) }] : [];
    case 'intent':
      return e.modelVisible === null ? [] : [{ pos, text: e.modelVisible, as: new Set(['tail']) }];
    default:
      return [];
  }
}

/** Runs of consecutive turn ends where one of the entry's matching texts was sent, one fidelity each. */
function runsOf(fate: EntryFate, carriers: Carrier[], q: string): ProjectedSearchHit[] {
  const out: ProjectedSearchHit[] = [];
  let run: ProjectedSearchHit | null = null;
  fate.rows.forEach((r) => {
    const c = carriers.find((x) => x.as.has(r.fidelity));
    if (!c) {
      run = null;
      return;
    }
    if (run && run.fidelity === r.fidelity) {
      run.toTurn = r.turn;
      run.to = r.at;
      run.count++;
      return;
    }
    const { snippet, matches } = snippetOf(c.text, q);
    run = {
      entry: fate.entry,
      kind: fate.kind,
      fidelity: r.fidelity,
      fromTurn: r.turn,
      toTurn: r.turn,
      from: r.at,
      to: r.at,
      count: 1,
      message: null,
      snippet,
      matches,
    };
    out.push(run);
  });
  return out;
}

/** The projection at the leaf itself: each message (and the system prompt and tools) that holds the text. */
function atLeaf(ledger: Ledger, leaf: number, req: ProjectedSearchRequest, q: string): ProjectedSearch {
  const lp = planLeaf(ledger, leaf, {
    plan: req.plan,
    profile: req.profile,
    overrides: new Map(Object.entries(req.overrides ?? {})),
  });
  const leafId = ledger.index.ids[leaf];
  const hits: ProjectedSearchHit[] = [];
  const hit = (entry: string, fidelity: FateFidelity, message: number | null, text: string): void => {
    const i = ledger.indexOf(entry);
    const { snippet, matches } = snippetOf(text, q);
    const kind = i === undefined ? '' : ledger.index.kindName(i);
    hits.push({
      entry,
      kind,
      fidelity,
      fromTurn: 0,
      toTurn: 0,
      from: leafId,
      to: leafId,
      count: 1,
      message,
      snippet,
      matches,
    });
  };
  const h = headerContext(ledger);
  const sys = h.system + '\n' + stringifyJson(h.tools);
  if (ledger.index.header >= 0 && fold(sys).includes(q))
    hit(ledger.index.ids[ledger.index.header], 'system', null, sys);
  let truncated = false;
  const PAGE = 500;
  for (let start = 0; start < lp.messageCount && !truncated; start += PAGE) {
    const page = lp.messages(start, Math.min(lp.messageCount, start + PAGE));
    page.forEach((m, k) => {
      if (truncated) return;
      const text = messageText(m.content);
      if (!fold(text).includes(q)) return;
      if (hits.length >= req.limit) truncated = true;
      else hit(m.source_ids[0], m.fidelity, start + k, text);
    });
  }
  return {
    query: req.query,
    across: 'leaf',
    leaf: leafId,
    turnEnds: 1,
    hits,
    firstSent: null,
    lastSent: null,
    truncated,
  };
}
