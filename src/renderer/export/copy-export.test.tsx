// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { FIXTURES, fixtureLine } from '../test-support/backend-api';
import { renderSession } from '../test-support/render-backend';
import { copyButtonName } from './copy-button';
import { messageText } from './exports';

/** What the page wrote to the clipboard (jsdom has none: this one records, or refuses when told to). */
let copied: string[] = [];
let refuse: string | null = null;
beforeEach(() => {
  copied = [];
  refuse = null;
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: {
      writeText: async (t: string) => {
        if (refuse) throw new Error(refuse);
        copied.push(t);
      },
    },
  });
});
afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
});

const historyItem = (id: string) => {
  const el = document.querySelector<HTMLElement>(`.history-item[data-entry-id="${id}"]`);
  if (!el) throw new Error(`no history item ${id}`);
  return el;
};

async function expandEntry(id: string): Promise<HTMLElement> {
  await waitFor(() => historyItem(id));
  fireEvent.click(within(historyItem(id)).getByRole('button', { name: '▸' }));
  await waitFor(() => within(historyItem(id)).getByRole('button', { name: `copy id: copy entry id ${id}` }));
  return historyItem(id);
}

describe('copy', () => {
  it("an entry's id and its raw line, byte for byte as the file has it", async () => {
    await renderSession('linear');
    const item = await expandEntry('e0003');
    fireEvent.click(within(item).getByRole('button', { name: 'copy id: copy entry id e0003' }));
    await waitFor(() => expect(copied).toEqual(['e0003']));
    expect(within(item).getByRole('button', { name: 'copy id: copy entry id e0003' }).textContent).toBe('copied ✓');
    fireEvent.click(within(item).getByRole('button', { name: 'copy line: copy the raw line of e0003' }));
    const line = fixtureLine('linear', 3);
    expect(JSON.parse(line).id).toBe('e0003');
    await waitFor(() => expect(copied).toEqual(['e0003', line]));
  });

  it("a projected message's text, and the whole projected context as §9 JSON (the fixture's expected output)", async () => {
    const api = await renderSession('linear');
    const pane = await screen.findByRole('region', { name: 'Projected context' });
    const view = await api.getLeafView({
      key: api.keyOf('linear'),
      leaf: null,
      plan: 'auto',
      profile: DEFAULT_PROFILE,
      overrides: {},
    });
    const btn = await within(pane).findByRole('button', { name: 'copy the text of message 1' });
    fireEvent.click(btn);
    await waitFor(() => expect(copied).toHaveLength(1));
    expect(copied[0]).toBe(messageText(view.projection.messages[1]));
    expect(copied[0].length).toBeGreaterThan(0);

    fireEvent.click(within(pane).getByRole('button', { name: 'copy all: copy the whole projected context (JSON)' }));
    await waitFor(() => expect(copied).toHaveLength(2));
    const expected = JSON.parse(readFileSync(join(FIXTURES, 'linear.expected.json'), 'utf8')) as {
      projections: {
        args: { leaf: string | null; plan: string; window: number; reserve: number; bytes_per_token: number };
        output: unknown;
      }[];
    };
    const want = expected.projections.find(
      (p) => p.args.leaf === null && p.args.plan === 'auto' && p.args.window === 200000 && p.args.bytes_per_token === 4,
    );
    expect(want).toBeDefined();
    expect(JSON.parse(copied[1])).toEqual(want?.output);
  });

  it('a refused copy says why, in place', async () => {
    await renderSession('linear');
    const item = await expandEntry('e0003');
    refuse = 'Write permission denied.';
    fireEvent.click(within(item).getByRole('button', { name: 'copy id: copy entry id e0003' }));
    const alert = await within(item).findByRole('alert');
    expect(alert.textContent).toBe('Copy failed: Write permission denied.');
    expect(copied).toEqual([]);
  });
});

describe("a copy button's accessible name", () => {
  it('holds the words it shows (label-content-name-mismatch)', () => {
    expect(copyButtonName('copy all', 'copy the whole projected context (JSON)')).toBe(
      'copy all: copy the whole projected context (JSON)',
    );
    expect(copyButtonName('copy', 'copy the text of message 3')).toBe('copy the text of message 3');
    expect(copyButtonName('copy id', undefined)).toBe('copy id');
  });
});
