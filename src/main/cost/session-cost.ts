/**
 * Tokens and cost per turn and per session. Message usage (`meta.usage`)
 * is what the session cost; receipt attempts other than the winning one are calls that
 * produced no message (retries, failures) and are counted apart, never added to the
 * message figures: the winning attempt is the message's own call (docs/spec-decisions.md,
 * Usage). Prices come from a PriceTable; a model without one stays tokens only.
 */
import type { CostBlock, ModelCost, PriceTable, SessionCost, TokenCounts, TurnCost } from '../../shared/api-features';
import { chainToRoot } from '../core/chain';
import { isObject, type Json } from '../core/entry-types';
import type { Ledger } from '../core/ledger';
import { PerReading } from '../core/per-reading';
import { F_USAGE } from '../core/ledger-index';
import { buildTurnIndex } from '../core/turn-index';
import { priceOf } from './price-table';

const UNKNOWN_MODEL = 'unknown';
const TITLE_CHARS = 120;

/** Tokens of one call. */
type Call = { model: string; tokens: TokenCounts };

/** Accumulates calls per model, then prices them. */
class CostSum {
  private byModel = new Map<string, { tokens: TokenCounts; calls: number }>();

  add(c: Call): void {
    let m = this.byModel.get(c.model);
    if (!m) this.byModel.set(c.model, (m = { tokens: zero(), calls: 0 }));
    addTokens(m.tokens, c.tokens);
    m.calls++;
  }

  addSum(o: CostSum, sign = 1): void {
    for (const [model, m] of o.byModel) {
      let mine = this.byModel.get(model);
      if (!mine) this.byModel.set(model, (mine = { tokens: zero(), calls: 0 }));
      addTokens(mine.tokens, m.tokens, sign);
      mine.calls += sign * m.calls;
    }
  }

  block(prices: PriceTable): CostBlock {
    const byModel: ModelCost[] = [];
    const tokens = zero();
    let usd = 0;
    let complete = true;
    for (const [model, m] of [...this.byModel].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      if (m.calls === 0 && isZero(m.tokens)) continue;
      const p = priceOf(prices, model);
      const cost =
        p === null
          ? null
          : (m.tokens.input * p.input +
              m.tokens.output * p.output +
              m.tokens.cacheRead * p.cache_read +
              m.tokens.cacheWrite * p.cache_write) /
            1_000_000;
      if (cost === null) complete = false;
      else usd += cost;
      addTokens(tokens, m.tokens);
      byModel.push({ model, tokens: { ...m.tokens }, usd: cost, calls: m.calls });
    }
    return { tokens, usd, complete, byModel };
  }
}

const zero = (): TokenCounts => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
const isZero = (t: TokenCounts): boolean => t.input === 0 && t.output === 0 && t.cacheRead === 0 && t.cacheWrite === 0;

function addTokens(into: TokenCounts, t: TokenCounts, sign = 1): void {
  into.input += sign * t.input;
  into.output += sign * t.output;
  into.cacheRead += sign * t.cacheRead;
  into.cacheWrite += sign * t.cacheWrite;
}

/** A usage object as recorded: whole numbers ≥ 0 count, anything else counts 0 (like the reader). */
function usageTokens(u: Json | undefined): TokenCounts | null {
  if (!isObject(u)) return null;
  const n = (v: Json | undefined): number => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);
  return {
    input: n(u['input_tokens']),
    output: n(u['output_tokens']),
    cacheRead: n(u['cache_read_tokens']),
    cacheWrite: n(u['cache_write_tokens']),
  };
}

/** What one entry adds: its message call, and its receipt's paid attempts other than the winner. */
interface EntryCalls {
  message: Call | null;
  retries: Call[];
  attempts: number;
}

/**
 * Per-entry calls, read once per ledger revision: the model of a message is its
 * `meta.model`, else the header's; a receipt's attempts are priced as the model of
 * the message it follows (its parent), else the header's.
 */
class CallReader {
  private cache = new Map<number, EntryCalls>();
  readonly headerModel: string;

  constructor(private readonly ledger: Ledger) {
    const ix = ledger.index;
    const h = ix.header >= 0 ? ledger.entry(ix.header) : null;
    this.headerModel = h && h.kind === 'header' && h.model ? h.model : UNKNOWN_MODEL;
  }

  /** Entries whose calls were read (counted work: a second cost reads no entry again). */
  get read(): number {
    return this.cache.size;
  }

  calls(i: number): EntryCalls | null {
    const ix = this.ledger.index;
    const kind = ix.kindName(i);
    if (kind !== 'receipt' && (ix.flags[i] & F_USAGE) === 0) return null;
    let c = this.cache.get(i);
    if (c) return c;
    c = kind === 'receipt' ? this.receipt(i) : this.message(i);
    this.cache.set(i, c);
    return c;
  }

  private modelOf(i: number): string | null {
    const e = this.ledger.entry(i);
    const meta = e.fields['meta'];
    return isObject(meta) && typeof meta['model'] === 'string' && meta['model'].length > 0 ? meta['model'] : null;
  }

  private message(i: number): EntryCalls {
    const ix = this.ledger.index;
    const tokens: TokenCounts = {
      input: ix.usage[i * 4],
      output: ix.usage[i * 4 + 1],
      cacheRead: ix.usage[i * 4 + 2],
      cacheWrite: ix.usage[i * 4 + 3],
    };
    return { message: { model: this.modelOf(i) ?? this.headerModel, tokens }, retries: [], attempts: 0 };
  }

  private receipt(i: number): EntryCalls {
    const e = this.ledger.entry(i);
    const r = e.kind === 'receipt' ? e.payload : undefined;
    const out: EntryCalls = { message: null, retries: [], attempts: 0 };
    if (!isObject(r) || !Array.isArray(r['attempts'])) return out;
    const parent = this.ledger.index.parent[i];
    const model = (parent >= 0 ? this.modelOf(parent) : null) ?? this.headerModel;
    const winner = r['winning_attempt'];
    r['attempts'].forEach((a, k) => {
      out.attempts++;
      if (k === winner || !isObject(a)) return;
      const tokens = usageTokens(a['usage']);
      if (tokens) out.retries.push({ model, tokens });
    });
    return out;
  }
}

/**
 * Readers kept per reading of a ledger: entries never change while the file stays append-only, so
 * a cost asked again (another leaf, new prices, after an append) reads only new entries. A new
 * reading (a reload, a rewrite found in place: Ledger.generation) is read anew.
 */
const readers = new PerReading<CallReader>('cost readers');

function readerFor(ledger: Ledger): CallReader {
  return readers.getOrMake(ledger, () => new CallReader(ledger));
}

/** Cost of the leaf's chain per turn, of the chain, of every branch, and of the abandoned ones. */
export function sessionCost(ledger: Ledger, leaf: number, prices: PriceTable): SessionCost {
  const ix = ledger.index;
  const reader = readerFor(ledger);
  const chain = chainToRoot(ix, leaf);

  const turns: { row: Omit<TurnCost, 'messages' | 'retries'>; messages: CostSum; retries: CostSum }[] = [];
  const chainMessages = new CostSum();
  const chainRetries = new CostSum();
  // Turns over the whole chain (a reset does not end the money spent before it).
  const ti = buildTurnIndex(ix, chain);
  const groups: { turnId: string | null; entries: readonly number[] }[] = [
    ...(ti.preamble.length > 0 ? [{ turnId: null, entries: ti.preamble }] : []),
    ...ti.turns.map((t) => ({ turnId: t.id, entries: t.entries })),
  ];
  for (const g of groups) {
    const first = ledger.entry(g.entries[0]);
    const title = g.turnId !== null && first.kind === 'message' ? clip(firstText(first.message.content)) : '';
    const turn = {
      row: { turnId: g.turnId, title, ts: first.ts, attempts: 0 },
      messages: new CostSum(),
      retries: new CostSum(),
    };
    for (const i of g.entries) {
      const c = reader.calls(i);
      if (!c) continue;
      if (c.message) {
        turn.messages.add(c.message);
        chainMessages.add(c.message);
      }
      for (const r of c.retries) {
        turn.retries.add(r);
        chainRetries.add(r);
      }
      turn.row.attempts += c.attempts;
    }
    // The preamble is a row only when it cost something.
    if (g.turnId !== null || turn.row.attempts > 0 || turn.messages.block(prices).byModel.length > 0) turns.push(turn);
  }

  const allMessages = new CostSum();
  const allRetries = new CostSum();
  for (let i = 0; i < ix.count; i++) {
    const c = reader.calls(i);
    if (!c) continue;
    if (c.message) allMessages.add(c.message);
    for (const r of c.retries) allRetries.add(r);
  }
  const abandonedMessages = new CostSum();
  abandonedMessages.addSum(allMessages);
  abandonedMessages.addSum(chainMessages, -1);
  const abandonedRetries = new CostSum();
  abandonedRetries.addSum(allRetries);
  abandonedRetries.addSum(chainRetries, -1);

  return {
    leaf: ix.ids[leaf],
    prices,
    chain: { messages: chainMessages.block(prices), retries: chainRetries.block(prices) },
    allBranches: { messages: allMessages.block(prices), retries: allRetries.block(prices) },
    abandoned: { messages: abandonedMessages.block(prices), retries: abandonedRetries.block(prices) },
    turns: turns.map((t) => ({ ...t.row, messages: t.messages.block(prices), retries: t.retries.block(prices) })),
  };
}

function firstText(content: readonly Json[]): string {
  for (const b of content) if (isObject(b) && b['type'] === 'text' && typeof b['text'] === 'string') return b['text'];
  return '';
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > TITLE_CHARS ? one.slice(0, TITLE_CHARS - 1) + '…' : one;
}
