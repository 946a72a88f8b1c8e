/**
 * The usage a provider would report for a demo session: each answer's input is what the
 * agent sent for it — the §5 projection at the entry it replied to (system, tools,
 * messages) — counted at a plausible bytes per token, most of it read from the prompt
 * cache the call before wrote. The generator's own figures are a rough running guess
 * that does not follow the content; the demo's chart shows the measured input beside the
 * estimate, so there it must be what a real session would show.
 */
import { hash } from 'node:crypto';
import { Ledger } from '../src/main/core/ledger';
import { deriveMessages } from '../src/main/core/projection';
import { Rng } from '../src/generator/rng';

/** What a Claude tokenizer gives for this English-and-code mix, in bytes per token. */
export const DEMO_BYTES_PER_TOKEN = 3.8;
/** Counting at one byte per token makes the projection's figure its byte count plus the fixed part. */
const BYTES = { window: 1e12, reserve: 0, bytes_per_token: 1 };

type Usage = { input_tokens: number; output_tokens: number; cache_read_tokens?: number; cache_write_tokens?: number };
type Line = Record<string, unknown> & {
  id: string;
  parent_id: string | null;
  prev_hash: string | null;
  kind: string;
  message?: { role: string; content: { type: string }[] };
  meta?: { usage?: Usage };
  receipt?: { winning_attempt: number; attempts: { usage?: Usage }[] };
};

/** `bytes` (a whole, undamaged ledger) with every answer's usage replaced by the provider's figures, hashes relinked. */
export function withProviderUsage(bytes: Buffer, seed: number): Buffer {
  const rng = new Rng(seed);
  const ledger = Ledger.fromBytes(bytes);
  const lines = bytes.toString('utf8').split('\n');
  lines.pop();
  const entries = lines.map((l) => JSON.parse(l) as Line);
  const byId = new Map(entries.map((e, k) => [e.id, k]));
  /** Input tokens of each answer, and whether a reset stands between it and the call before. */
  const inputOf = new Map<number, number>();
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k];
    const usage = e.meta?.usage;
    if (e.kind !== 'message' || e.message?.role !== 'assistant' || !usage || e.parent_id === null) continue;
    const parent = ledger.indexOf(e.parent_id);
    if (parent === undefined) continue;
    const p = deriveMessages(ledger, parent, BYTES);
    let images = 0;
    for (const m of p.messages) for (const b of m.content as { type?: string }[]) if (b.type === 'image') images++;
    const fixed = 4 * p.messages.length + 1000 * images;
    const jitter = 0.97 + rng.next() * 0.06;
    const input = Math.round(fixed + ((p.tokens.total - fixed) / DEMO_BYTES_PER_TOKEN) * jitter);
    inputOf.set(k, input);
    // The cache holds the previous call of this chain, unless a reset rewrote the prefix since.
    let cached = Math.round((p.tokens.system + p.tokens.tools) / DEMO_BYTES_PER_TOKEN);
    for (let a = byId.get(e.parent_id); a !== undefined;) {
      const up = entries[a];
      if (up.kind === 'compaction' && up['reset_all'] === true) break;
      const before = inputOf.get(a);
      if (before !== undefined) {
        cached = Math.min(before, input);
        break;
      }
      a = up.parent_id === null ? undefined : byId.get(up.parent_id);
    }
    e.meta = {
      ...e.meta,
      usage: { input_tokens: input - cached, output_tokens: usage.output_tokens, cache_read_tokens: cached },
    };
  }
  // A receipt records the call of the answer it follows: the same usage.
  for (const e of entries) {
    if (e.kind !== 'receipt' || !e.receipt || e.parent_id === null) continue;
    const answer = entries[byId.get(e.parent_id) ?? -1];
    const win = e.receipt.attempts[e.receipt.winning_attempt];
    const usage = answer?.meta?.usage;
    if (win && usage) win.usage = { ...usage, output_tokens: win.usage?.output_tokens ?? usage.output_tokens };
  }
  ledger.close();
  let prev: string | null = null;
  const out = entries.map((e) => {
    const line = JSON.stringify({ ...e, prev_hash: prev });
    prev = hash('sha256', line, 'hex');
    return line;
  });
  return Buffer.from(out.join('\n') + '\n', 'utf8');
}
