// @vitest-environment jsdom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clipJson, DEEP_VALUE_MARK, MAX_SENT_DEPTH } from '../../shared/json-text';
import type { Json } from '../../shared/ledger-types';
import { COLLAPSE_AT } from '../text/collapsible-text';
import { MessageBlocks } from '../text/message-blocks';

afterEach(cleanup);

/** The value view draws a value of any depth, clipped with "show all". */
const deepArray = (depth: number): Json => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as Json;

describe('a deeply nested value in a content block', () => {
  for (const depth of [10_000, 100_000]) {
    it(`draws a tool call whose input is ${depth.toLocaleString('en-US')} levels deep, clipped, and shows all on request`, () => {
      const block = { type: 'tool_use', id: 't1', name: 'deep', input: deepArray(depth) };
      const { container, getByText } = render(<MessageBlocks content={[block]} />);
      const pre = container.querySelector('pre.json');
      expect(pre?.textContent?.length).toBe(COLLAPSE_AT);
      expect(pre?.textContent?.startsWith('[\n  [\n    [')).toBe(true);
      fireEvent.click(getByText(/show all/));
      const all = container.querySelector('pre.json')?.textContent ?? '';
      expect(all.length).toBeGreaterThan(COLLAPSE_AT);
      expect(all.trimEnd().endsWith(']')).toBe(true);
    });
  }

  it('draws the JSON text a transport-clipped value carries past MAX_SENT_DEPTH', () => {
    const clipped = clipJson(deepArray(100_000), { maxChars: 64 * 1024, maxDepth: MAX_SENT_DEPTH }).value;
    const { container } = render(<MessageBlocks content={[{ type: 'mystery', value: clipped }]} />);
    fireEvent.click(container.querySelector('button.show-all') as HTMLElement);
    expect(container.querySelector('pre.json')?.textContent).toContain(DEEP_VALUE_MARK.trim());
  });

  it('draws a non-object block of any depth as text', () => {
    const { container } = render(<MessageBlocks content={[deepArray(100_000)]} />);
    expect(container.querySelector('.block-raw pre')?.textContent?.length).toBe(COLLAPSE_AT);
  });
});
