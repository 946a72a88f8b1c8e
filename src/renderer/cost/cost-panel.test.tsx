// @vitest-environment jsdom
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { CostBlock } from '../../shared/api-features';
import { SessionWriter } from '../test-support/backend-api';
import { press, renderOnBackend, sessionHash } from '../test-support/render-backend';
import { fmtInt } from '../util/format';
import { fmtUsd } from './cost-format';

const SONNET = { input_tokens: 1000, output_tokens: 100, cache_read_tokens: 2000, cache_write_tokens: 400 };

/**
 * Two turns on the active chain (one with a retried call: a failed attempt paid apart), an
 * abandoned branch with its own answer, and an answer from a model the price table lacks.
 */
function costSession(): SessionWriter {
  return new SessionWriter()
    .header()
    .message('u1', 'h', 'user', [{ type: 'text', text: 'First question' }])
    .add('a1', 'u1', 'message', {
      message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      meta: { usage: SONNET },
    })
    .add('r1', 'a1', 'receipt', {
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
          { reason: 'retry', domain: 'api', settlement: 'ok', usage: SONNET },
        ],
      },
    })
    .message('u2', 'r1', 'user', [{ type: 'text', text: 'Abandoned idea' }])
    .add('a2', 'u2', 'message', {
      message: { role: 'assistant', content: [{ type: 'text', text: 'tried' }] },
      meta: { usage: { input_tokens: 3000, output_tokens: 300 } },
    })
    .message('u3', 'r1', 'user', [{ type: 'text', text: 'Second question' }])
    .add('a3', 'u3', 'message', {
      message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
      meta: { model: 'mystery-model', usage: { input_tokens: 7000, output_tokens: 70 } },
    });
}

const rowCells = (table: HTMLElement, label: RegExp | string) => {
  const th = within(table).getByText(label).closest('tr');
  if (!th) throw new Error(`no row ${String(label)}`);
  return [...th.querySelectorAll('td')].map((td) => td.textContent);
};

const expectedCells = (b: CostBlock, cost: string) => [
  fmtInt(b.tokens.input),
  fmtInt(b.tokens.output),
  fmtInt(b.tokens.cacheRead),
  fmtInt(b.tokens.cacheWrite),
  fmtInt(b.byModel.reduce((a, m) => a + m.calls, 0)),
  cost,
];

/** Waits for the session's leaf, then opens the panel with its key. */
async function openCost(): Promise<void> {
  await waitFor(() => expect(document.querySelector('.leaf-panes')?.getAttribute('data-leaf-id')).toBe('a3'));
  press('$');
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('cost panel', () => {
  it("shows getCost's figures: this chain, all branches, abandoned as real money, retries apart, unpriced as tokens only", async () => {
    const api = await renderOnBackend({ written: { cost: costSession() }, hash: sessionHash('cost') });
    await openCost();
    const table = await screen.findByRole('table', { name: 'Session cost' });
    const cost = await api.getCost({ key: api.keyOf('cost'), leaf: 'a3' });
    // The chain holds an unpriced model: its cost is the priced part "+ unpriced".
    expect(cost.chain.messages.complete).toBe(false);
    expect(rowCells(table, /^this chain/)).toEqual(
      expectedCells(cost.chain.messages, `${fmtUsd(cost.chain.messages.usd)} + unpriced`),
    );
    expect(rowCells(table, 'all branches')).toEqual(
      expectedCells(cost.allBranches.messages, `${fmtUsd(cost.allBranches.messages.usd)} + unpriced`),
    );
    // The abandoned branch (a2) was paid for: 3,000 in, 300 out at the bundled sonnet prices.
    expect(cost.abandoned.messages.usd).toBeCloseTo((3000 * 3 + 300 * 15) / 1e6, 10);
    expect(rowCells(table, /abandoned branches — real money/)).toEqual(
      expectedCells(cost.abandoned.messages, fmtUsd(cost.abandoned.messages.usd)),
    );
    // The failed attempt (500 in) is a retry, paid apart; the winning attempt is a1's usage, not added again.
    expect(cost.chain.retries.tokens.input).toBe(500);
    expect(rowCells(table, 'retries · this chain')).toEqual(
      expectedCells(cost.chain.retries, fmtUsd(cost.chain.retries.usd)),
    );
    expect(cost.chain.messages.tokens.input).toBe(1000 + 7000);

    const turns = screen.getByRole('table', { name: 'Cost per turn' });
    const first = within(turns).getByRole('button', { name: 'First question' }).closest('tr')!;
    const cells = [...first.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells.slice(2)).toEqual([
      '1,000',
      '100',
      '2,000',
      '400',
      fmtUsd(cost.turns[0].messages.usd),
      `2 · ${fmtUsd(cost.turns[0].retries.usd)}`,
    ]);
    const second = within(turns).getByRole('button', { name: 'Second question' }).closest('tr')!;
    expect(second.textContent).toContain('tokens only');
    const note = screen.getByLabelText('Price table');
    expect(note.textContent).toContain('No price for mystery-model: shown as tokens only');
    expect(note.textContent).toContain('the bundled table');
  });

  it("says where the price table is and what is wrong with the user's file", async () => {
    const data = mkdtempSync(join(tmpdir(), 'vak-cost-ui-'));
    dirs.push(data);
    writeFileSync(join(data, 'prices.json'), JSON.stringify({ models: { 'claude-sonnet-4-5': { input: -1 } } }));
    await renderOnBackend({ written: { cost: costSession() }, hash: sessionHash('cost'), userDataDir: data });
    await openCost();
    const note = await screen.findByLabelText('Price table');
    expect(within(note).getByText(join(data, 'prices.json'))).toBeTruthy();
    const errors = within(note).getByRole('list', { name: 'Price table errors' });
    expect(errors.textContent).toContain(`${join(data, 'prices.json')}: model 1 in "models": "input" must be a number`);
    expect(errors.textContent).toContain('The bundled prices are used until the file is fixed.');
  });

  it('a valid user table prices the model it adds', async () => {
    const data = mkdtempSync(join(tmpdir(), 'vak-cost-ui-'));
    dirs.push(data);
    const mystery = { input: 2, output: 10, cache_read: 0, cache_write: 0 };
    writeFileSync(
      join(data, 'prices.json'),
      JSON.stringify({
        models: {
          'claude-sonnet-4-5': { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
          'mystery-model': mystery,
        },
      }),
    );
    await renderOnBackend({ written: { cost: costSession() }, hash: sessionHash('cost'), userDataDir: data });
    await openCost();
    const turns = await screen.findByRole('table', { name: 'Cost per turn' });
    const second = within(turns).getByRole('button', { name: 'Second question' }).closest('tr')!;
    expect(second.textContent).toContain(fmtUsd((7000 * 2 + 70 * 10) / 1e6));
    expect(screen.getByLabelText('Price table').textContent).toContain('your table');
    expect(screen.getByLabelText('Price table').textContent).not.toContain('No price for');
  });

  it('follows an edit of prices.json while it is open', async () => {
    const data = mkdtempSync(join(tmpdir(), 'vak-cost-ui-'));
    dirs.push(data);
    const table = (input: number) =>
      JSON.stringify({
        models: {
          'claude-sonnet-4-5': { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
          'mystery-model': { input, output: 10, cache_read: 0, cache_write: 0 },
        },
      });
    writeFileSync(join(data, 'prices.json'), table(2));
    const api = await renderOnBackend({
      written: { cost: costSession() },
      hash: sessionHash('cost'),
      userDataDir: data,
    });
    await openCost();
    const secondRow = async () => {
      const turns = await screen.findByRole('table', { name: 'Cost per turn' });
      return within(turns).getByRole('button', { name: 'Second question' }).closest('tr')!;
    };
    expect((await secondRow()).textContent).toContain(fmtUsd((7000 * 2 + 70 * 10) / 1e6));
    const asked = api.calls.filter((c) => c.method === 'getCost').length;
    // The user edits the file: the panel asks again on the backend's event and shows the new price.
    writeFileSync(join(data, 'prices.json'), table(5));
    await waitFor(async () => expect((await secondRow()).textContent).toContain(fmtUsd((7000 * 5 + 70 * 10) / 1e6)));
    expect(api.events.some((e) => e.type === 'prices')).toBe(true);
    expect(api.calls.filter((c) => c.method === 'getCost').length).toBeGreaterThan(asked);
  });
});
