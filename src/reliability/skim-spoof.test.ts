/**
 * The first read's skimmer (json-skim.ts) stands placeholder strings (`"\u0000<k>"`) in for the
 * long strings it only measures. A ledger line must never be able to pass one of its own strings
 * off as a placeholder: here a text block whose key is written escaped (`"t\u0065xt"`, which
 * JSON.parse reads as `text`) holds the string `"\u00000"`, the very text of placeholder 0, next to
 * a 40 KB text block that is skimmed. The reader must cost that message as the plain parse does,
 * and the app's plan (a first open: notes from the skimmed read) must be the CLI's.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../shared/ledger-types';
import { FullNotes } from '../main/core/full-notes';
import { JsonSkim } from '../main/core/json-skim';
import { LedgerIndex } from '../main/core/ledger-index';
import { Ledger } from '../main/core/ledger';
import { planLeaf } from '../main/core/leaf-plan';
import { allPlanRows } from '../shared/plan-rows';
import { LineFeeder } from '../main/core/line-feeder';
import { LineReader } from '../main/core/line-reader';
import { useTempDir } from '../test-support/temp-dir';
import { cliInProcess } from './cli-run';

const tempDir = useTempDir('vak-skim-spoof-');
const BPT = DEFAULT_PROFILE.bytes_per_token;
/** A budget the turn fits at Full (~10k tokens) but not at twice that. */
const PROFILE = { window: 32_000, reserve: 16_000, bytes_per_token: BPT };

/** Ledger lines with `ts` and the §2 hash chain; `edit` rewrites each line's JSON text before it is hashed. */
function ledger(entries: Record<string, unknown>[], edit: (line: string) => string): Buffer {
  let prev: string | null = null;
  const lines = entries.map((e, k) => {
    const line = edit(JSON.stringify({ ts: `2026-01-01T00:00:0${k}.000Z`, prev_hash: prev, ...e }));
    prev = createHash('sha256').update(line).digest('hex');
    return line + '\n';
  });
  return Buffer.from(lines.join(''));
}

/** The spoof: `"t\u0065xt":"\u00000"` beside a 40 KB text block, in turn e00002. */
const SPOOF = ledger(
  [
    { id: 'e00001', parent_id: null, kind: 'header', system_prompt: 's', tools: [] },
    {
      id: 'e00002',
      parent_id: 'e00001',
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: 'go' }] },
    },
    {
      id: 'e00003',
      parent_id: 'e00002',
      kind: 'message',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'x'.repeat(40_000) },
          { type: 'text', SPOOFED_KEY: '\u00000' },
        ],
      },
    },
    {
      id: 'e00004',
      parent_id: 'e00003',
      kind: 'turn_card',
      turn_card: { turn_id: 'e00002', asked: 'go', did: 'wrote', answered: true, line: 'go; wrote' },
    },
    {
      id: 'e00005',
      parent_id: 'e00004',
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: 'next' }] },
    },
  ],
  (line) => line.replace('"SPOOFED_KEY"', '"t\\u0065xt"'),
);

/** Each entry's noted Full tokens, read by a LineReader with `skim`. */
function notedTokens(bytes: Buffer, skim: JsonSkim): (number | null | undefined)[] {
  const index = new LedgerIndex();
  const notes = new FullNotes(BPT, true);
  const reader = new LineReader(index, notes, skim);
  new LineFeeder(reader, 0).push(bytes);
  expect(reader.warnings).toEqual([]);
  return Array.from({ length: index.count }, (_, i) => notes.tokensOf(i, BPT));
}

interface PlanRow {
  turn_id: string;
  fidelity: string;
  tokens: number;
}

describe('a ledger line cannot pass its strings off as the skimmer placeholders', () => {
  it('the spoofed line is what the attack needs: escaped key, placeholder text, a long string skimmed', () => {
    const line = SPOOF.toString('utf8').split('\n')[2];
    expect(line).toContain('{"type":"text","t\\u0065xt":"\\u00000"}');
    expect(line.length).toBeGreaterThan(40_000);
  });

  it('the reader notes the spoofed message as it does with skimming off', () => {
    const plain = notedTokens(SPOOF, new JsonSkim(Number.POSITIVE_INFINITY));
    expect(plain[2]).toBeLessThan(10_100); // 40 000 bytes, "\u00000" and the overhead, at 4 bytes a token
    expect(notedTokens(SPOOF, new JsonSkim())).toEqual(plain);
  });

  it("the app's plan of the spoofed turn (a first open, notes from the skimmed read) is the CLI's", async () => {
    const file = join(tempDir(), 'spoof.jsonl');
    writeFileSync(file, SPOOF);

    const cli = await cliInProcess([
      'project',
      file,
      '--json',
      '--window',
      String(PROFILE.window),
      '--reserve',
      String(PROFILE.reserve),
    ]);
    expect(cli.err).toBe('');
    const cliPlan = (JSON.parse(cli.out) as { plan: PlanRow[] }).plan;
    expect(cliPlan.map((r) => [r.turn_id, r.fidelity])).toEqual([['e00002', 'full']]);
    expect(cliPlan[0].tokens).toBeGreaterThan(10_000);

    const app = await Ledger.open(file, { noteFullCosts: BPT });
    try {
      expect(app.fullNotes).not.toBeNull();
      const plan = allPlanRows(planLeaf(app, app.index.activeLeaf, { plan: 'auto', profile: PROFILE }).planRows);
      expect(plan).toEqual(cliPlan);
    } finally {
      app.close();
    }
  });
});
