import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSession } from '../../generator';
import { Ledger } from '../core/ledger';
import { usageTotals } from '../core/usage';
import { chainToRoot } from '../core/chain';
import { useTempDir } from '../../test-support/temp-dir';
import { bundledPrices, loadPriceTable } from './price-table';
import { sessionCost } from './session-cost';

const tempDir = useTempDir('vak-cost-');

const SONNET = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };

/** A ledger written line by line: two branches, a retried call, an unpriced model. */
function costLedger(dir: string): string {
  const base = { prev_hash: null as string | null };
  const lines: object[] = [
    {
      id: 'h',
      parent_id: null,
      ts: '2026-01-01T00:00:00Z',
      kind: 'header',
      model: 'claude-sonnet-4-5',
      system_prompt: '',
      tools: [],
    },
    {
      id: 'u1',
      parent_id: 'h',
      ts: '2026-01-01T00:00:01Z',
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: 'First  question\nplease' }] },
    },
    {
      id: 'a1',
      parent_id: 'u1',
      ts: '2026-01-01T00:00:02Z',
      kind: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      meta: { usage: { input_tokens: 1000, output_tokens: 100, cache_read_tokens: 2000, cache_write_tokens: 400 } },
    },
    {
      id: 'r1',
      parent_id: 'a1',
      ts: '2026-01-01T00:00:03Z',
      kind: 'receipt',
      receipt: {
        purpose: 'turn',
        winning_attempt: 1,
        attempts: [
          {
            reason: 'initial',
            domain: 'api',
            settlement: 'overloaded',
            usage: { input_tokens: 500, output_tokens: 0 },
          },
          { reason: 'retry', domain: 'api', settlement: 'ok', usage: { input_tokens: 1000, output_tokens: 100 } },
        ],
      },
    },
    {
      id: 'u2',
      parent_id: 'r1',
      ts: '2026-01-01T00:00:04Z',
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: 'Second' }] },
    },
    {
      id: 'a2',
      parent_id: 'u2',
      ts: '2026-01-01T00:00:05Z',
      kind: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text: 'hm' }] },
      meta: { model: 'mystery-model', usage: { input_tokens: 7, output_tokens: 3 } },
    },
    // An abandoned branch from a1: its cost is real money, counted apart.
    {
      id: 'u3',
      parent_id: 'a1',
      ts: '2026-01-01T00:00:06Z',
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: 'Other way' }] },
    },
    {
      id: 'a3',
      parent_id: 'u3',
      ts: '2026-01-01T00:00:07Z',
      kind: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text: 'x' }] },
      meta: { model: 'claude-sonnet-4-5', usage: { input_tokens: 2000, output_tokens: 200 } },
    },
    // The active leaf: back on the main line.
    {
      id: 'u4',
      parent_id: 'a2',
      ts: '2026-01-01T00:00:08Z',
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: 'Third' }] },
    },
  ];
  const path = join(dir, 's.jsonl');
  writeFileSync(path, lines.map((l) => JSON.stringify({ ...base, ...l })).join('\n') + '\n');
  return path;
}

describe('session cost', () => {
  it('per turn and per session, message usage and retried attempts apart, abandoned branches apart', () => {
    const ledger = Ledger.openSync(costLedger(tempDir()));
    const prices = loadPriceTable(null);
    const c = sessionCost(ledger, ledger.index.activeLeaf, prices);
    expect(c.leaf).toBe('u4');
    expect(c.turns.map((t) => [t.turnId, t.title])).toEqual([
      ['u1', 'First question please'],
      ['u2', 'Second'],
      ['u4', 'Third'],
    ]);
    const t1 = c.turns[0];
    expect(t1.messages.tokens).toEqual({ input: 1000, output: 100, cacheRead: 2000, cacheWrite: 400 });
    const usd1 =
      (1000 * SONNET.input + 100 * SONNET.output + 2000 * SONNET.cache_read + 400 * SONNET.cache_write) / 1e6;
    expect(t1.messages.usd).toBeCloseTo(usd1, 12);
    expect(t1.messages.complete).toBe(true);
    // Only the failed attempt is a retry; the winning one is a1's own call.
    expect(t1.retries.tokens).toEqual({ input: 500, output: 0, cacheRead: 0, cacheWrite: 0 });
    expect(t1.retries.usd).toBeCloseTo((500 * SONNET.input) / 1e6, 12);
    expect(t1.attempts).toBe(2);
    // An unknown model: tokens only, no price, and the total says it is incomplete.
    const t2 = c.turns[1];
    expect(t2.messages.byModel).toEqual([
      { model: 'mystery-model', tokens: { input: 7, output: 3, cacheRead: 0, cacheWrite: 0 }, usd: null, calls: 1 },
    ]);
    expect(t2.messages.usd).toBe(0);
    expect(t2.messages.complete).toBe(false);
    expect(c.chain.messages.complete).toBe(false);
    expect(c.chain.messages.usd).toBeCloseTo(usd1, 12);
    // The chain's tokens are the core's usage totals of the same chain (§2).
    const u = usageTotals(ledger, chainToRoot(ledger.index, ledger.index.activeLeaf));
    expect(c.chain.messages.tokens).toEqual({
      input: u.input_tokens,
      output: u.output_tokens,
      cacheRead: u.cache_read_tokens,
      cacheWrite: u.cache_write_tokens,
    });
    const usd3 = (2000 * SONNET.input + 200 * SONNET.output) / 1e6;
    expect(c.abandoned.messages.tokens).toEqual({ input: 2000, output: 200, cacheRead: 0, cacheWrite: 0 });
    expect(c.abandoned.messages.usd).toBeCloseTo(usd3, 12);
    expect(c.allBranches.messages.usd).toBeCloseTo(usd1 + usd3, 12);
    expect(c.abandoned.retries.byModel).toEqual([]);
    // Another leaf: the abandoned branch's chain.
    const other = sessionCost(ledger, ledger.indexOf('a3')!, prices);
    expect(other.chain.messages.usd).toBeCloseTo(usd1 + usd3, 12);
    expect(other.chain.retries.tokens.input).toBe(0);
  });

  it('a generated session: the chain figures equal the core usage totals; every model of the generator is priced', () => {
    const ledger = Ledger.fromBytes(generateSession({ seed: 3, entries: 2000, cwd: '/g' }).bytes);
    const c = sessionCost(ledger, ledger.index.activeLeaf, loadPriceTable(null));
    const all = usageTotals(ledger, 'all');
    expect(c.allBranches.messages.tokens.input).toBe(all.input_tokens);
    expect(c.allBranches.messages.tokens.output).toBe(all.output_tokens);
    expect(c.allBranches.messages.complete).toBe(true);
    expect(c.allBranches.messages.usd).toBeGreaterThan(0);
    expect(c.turns.reduce((n, t) => n + t.messages.tokens.output, 0)).toBe(c.chain.messages.tokens.output);
  });
});

describe('session cost, counted work', () => {
  it('a second cost of the same ledger reads no usage entry again (only the turn titles)', () => {
    const ledger = Ledger.fromBytes(
      generateSession({ seed: 8, entries: 9000, cwd: '/g', toolResultBytes: [40, 80] }).bytes,
    );
    // Entries parsed from their lines (the core's counter).
    const parsed = (): number => ledger.stats.entriesMaterialised;
    const prices = loadPriceTable(null);
    const first = sessionCost(ledger, ledger.index.activeLeaf, prices);
    const firstReads = parsed();
    const again = sessionCost(ledger, ledger.index.activeLeaf, prices);
    const reads = parsed() - firstReads;
    expect(again).toEqual(first);
    expect(firstReads).toBeGreaterThan(4096); // more than the ledger's own entry cache holds
    expect(reads).toBeLessThanOrEqual(first.turns.length);
  });
});

describe('price table', () => {
  it('uses the bundled table when the user has none, and says where to put one', () => {
    const dir = tempDir();
    const t = loadPriceTable(dir);
    expect(t).toMatchObject({ path: join(dir, 'prices.json'), source: 'bundled', errors: [] });
    expect(t.models['claude-sonnet-4-5']).toEqual(SONNET);
    // The bundled table prices every model the demo home's sessions name.
    const demo = readFileSync(
      join(
        import.meta.dirname,
        '../../../resources/demo-home/agents/vak/sessions/70929a3c84065db2/01a1f7f8-3000-7889-99d8-18977d6aa224.jsonl',
      ),
      'utf8',
    );
    for (const m of demo.matchAll(/"model":"([^"]+)"/g)) expect(Object.keys(bundledPrices())).toContain(m[1]);
  });

  it("reads the user's table; an invalid one is reported line by line and the bundled one used", () => {
    const dir = tempDir();
    const path = join(dir, 'prices.json');
    writeFileSync(
      path,
      JSON.stringify({
        models: {
          'my-model': { input: 1, output: 2, cache_read: 0, cache_write: 0 },
          __proto__x: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
        },
      }),
    );
    const ok = loadPriceTable(dir);
    expect(ok.source).toBe('user');
    expect(Object.keys(ok.models).sort()).toEqual(['__proto__x', 'my-model']);

    writeFileSync(path, JSON.stringify({ models: { 'my-model': { input: -1, output: 'x', cache_read: 0 } } }));
    const bad = loadPriceTable(dir);
    expect(bad.source).toBe('bundled');
    // Named by position, not by the model's name: the file may be any file a link leads to.
    expect(bad.errors).toEqual(
      ['input', 'output', 'cache_write'].map(
        (f) => `${path}: model 1 in "models": "${f}" must be a number from 0 to 1000000 (USD per million tokens)`,
      ),
    );

    writeFileSync(path, '{"models": {');
    expect(loadPriceTable(dir).errors[0]).toMatch(/not valid JSON/);
  });

  it('a FIFO named prices.json is refused at once, never read', () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, 'prices.json')]);
    const t = loadPriceTable(dir);
    expect(t.source).toBe('bundled');
    expect(t.errors[0]).toMatch(/not a regular file/);
  });
});
