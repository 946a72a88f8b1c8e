// @vitest-environment jsdom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Json } from '../../shared/ledger-types';
import { COLLAPSE_AT } from './collapsible-text';
import { loadMarkdown } from './markdown-on-demand';
import { MessageBlocks } from './message-blocks';
import { type TextView, TextViewContext } from './text-view';

afterEach(cleanup);

const draw = (content: Json[], view: TextView = 'verbatim', fetchRest?: () => void) =>
  render(
    <TextViewContext value={view}>
      <MessageBlocks content={content} fetchRest={fetchRest} />
    </TextViewContext>,
  );

/** Ledger text that would run script or navigate if any of it became live DOM. */
const HOSTILE = [
  'Plain **bold** words.',
  '<img src=x onerror="globalThis.__pwned = 1">',
  '<script>globalThis.__pwned = 2</script>',
  '<a href="javascript:globalThis.__pwned=3">raw anchor</a>',
  '[click me](javascript:globalThis.__pwned=4) and [docs](https://example.com/a)',
  '![pic](javascript:globalThis.__pwned=5)',
].join('\n\n');

const TAGS =
  'Follow <rules>answer in one line</rules> and put the result in <answer></answer> tags. Compare a<b and b>c.';

/** Every kind of character a rendering tends to lose. */
const AWKWARD = `${TAGS}\r\nA & B &amp; C\tTabbed\u200bzero\u200dwidth \u202eRTL override\u202c שלום עולם\r\n\u001b[31mred\u001b[0m **not bold**`;

const inert = (container: HTMLElement) => {
  for (const tag of ['img', 'script', 'a', 'iframe']) expect(container.querySelector(tag)).toBeNull();
  const attrs = [...container.querySelectorAll('*')].flatMap((el) => el.getAttributeNames());
  expect(attrs.filter((a) => a.startsWith('on') || a === 'href' || a === 'src')).toEqual([]);
  // The text may say "javascript:", as characters; no attribute holds it.
  const values = [...container.querySelectorAll('*')].flatMap((el) =>
    el.getAttributeNames().map((a) => el.getAttribute(a)),
  );
  expect(values.filter((v) => /javascript:/i.test(v ?? ''))).toEqual([]);
  expect((globalThis as { __pwned?: number }).__pwned).toBeUndefined();
};

describe('content blocks, verbatim (the default)', () => {
  it('shows a text block character for character: tags, <, &, CRLF, tabs, zero-width, bidi, ANSI', () => {
    const { container } = draw([{ type: 'text', text: AWKWARD }]);
    expect(container.querySelector('pre.verbatim')?.textContent).toBe(AWKWARD);
    expect(container.querySelector('strong')).toBeNull();
  });

  it('labels the characters that draw nothing, keeping each in the text', () => {
    const { container } = draw([{ type: 'text', text: AWKWARD }]);
    const ctl = [...container.querySelectorAll('.ctl')];
    expect(ctl.map((c) => c.getAttribute('data-ctl'))).toEqual(['CR', 'ZWSP', 'ZWJ', 'RLO', 'PDF', 'CR', 'ESC', 'ESC']);
    expect(ctl.map((c) => c.textContent)).toEqual([
      '\r',
      '\u200b',
      '\u200d',
      '\u202e',
      '\u202c',
      '\r',
      '\u001b',
      '\u001b',
    ]);
  });

  it('shows a tool result with its escape codes as characters, and a tool call as its JSON input', () => {
    const result = '\u001b[31msrc/a.rs:14\u001b[0m ok\r\n';
    const input = { path: 'a<b>.rs', body: 'x & y\t\u200b' };
    const { container } = draw([
      { type: 'tool_use', id: 't1', name: 'edit', input },
      { type: 'tool_result', tool_use_id: 't1', content: result },
    ]);
    const texts = [...container.querySelectorAll('pre.verbatim')].map((p) => p.textContent);
    expect(texts).toEqual([JSON.stringify(input, null, 2), result]);
  });

  it('keeps hostile text as inert characters', () => {
    const { container } = draw([{ type: 'text', text: HOSTILE }]);
    expect(container.querySelector('pre.verbatim')?.textContent).toBe(HOSTILE);
    inert(container);
  });
});

describe('content blocks, rendered (switched on)', () => {
  // The renderer is a chunk of its own: loaded here before drawing (the page loads it on first use).
  beforeAll(() => loadMarkdown());

  it('draws markdown, and raw HTML in it as the text it is', () => {
    const { container } = draw([{ type: 'text', text: `**bold** ${TAGS}` }], 'rendered');
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('.markdown')?.textContent).toBe(`bold ${TAGS}`);
  });

  it('renders hostile markdown safely: raw HTML and javascript: links never become live DOM', () => {
    const { container } = draw([{ type: 'text', text: HOSTILE }], 'rendered');
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    inert(container);
    // Raw HTML is shown as its text, not left out.
    expect(container.textContent).toContain('<img src=x onerror="globalThis.__pwned = 1">');
    expect(container.textContent).toContain('<script>globalThis.__pwned = 2</script>');
    // Links stay text; a javascript: address is not even kept in the tooltip.
    const links = [...container.querySelectorAll('.md-link')];
    expect(links.map((l) => l.textContent)).toEqual(['click me', 'docs']);
    expect(links.map((l) => l.getAttribute('title') ?? '')).toEqual(['', 'https://example.com/a']);
    expect(container.querySelector('.md-image')?.getAttribute('title') ?? '').not.toContain('javascript');
  });

  it('draws a tool result with its ANSI colours as spans', () => {
    const { container } = draw(
      [{ type: 'tool_result', tool_use_id: 't1', content: '\u001b[31msrc/a.rs:14\u001b[0m ok' }],
      'rendered',
    );
    expect(container.querySelector('.ansi .ansi-fg-31')?.textContent).toBe('src/a.rs:14');
    expect(container.querySelector('.ansi')?.textContent).toBe('src/a.rs:14 ok');
  });
});

describe('a long message', () => {
  const big = 'x'.repeat(150_000) + '<end>';
  const long: Json[] = [
    { type: 'text', text: big },
    { type: 'tool_use', id: 't', name: 'n', input: { s: 'y'.repeat(50_000) } },
  ];

  it('has one "show all", however many of its blocks are long, that shows every block whole', () => {
    const { container } = draw(long);
    expect(container.querySelectorAll('button.show-all')).toHaveLength(1);
    const pres = () => [...container.querySelectorAll('pre.verbatim')].map((p) => p.textContent ?? '');
    expect(pres().map((t) => t.length)).toEqual([COLLAPSE_AT, COLLAPSE_AT]);
    expect(pres()[0]).toBe(big.slice(0, COLLAPSE_AT));
    // The clip says so.
    expect([...container.querySelectorAll('.clip-note')].map((n) => n.textContent)).toEqual([
      `… ${(big.length - COLLAPSE_AT).toLocaleString('en-US')} more characters`,
      expect.stringMatching(/^… [\d,]+ more characters$/) as unknown as string,
    ]);
    fireEvent.click(container.querySelector('button.show-all') as HTMLElement);
    expect(pres()).toEqual([big, JSON.stringify({ s: 'y'.repeat(50_000) }, null, 2)]);
    expect(container.querySelectorAll('button.show-all, .clip-note')).toHaveLength(0);
  });

  it('clipped for transport: the one "show all" also fetches the rest', () => {
    let asked = 0;
    const { container } = draw([{ type: 'text', text: big }], 'verbatim', () => asked++);
    expect(container.querySelectorAll('button.show-all')).toHaveLength(1);
    expect(container.querySelector('.clip-note')?.textContent).toMatch(/^… at least [\d,]+ more characters$/);
    fireEvent.click(container.querySelector('button.show-all') as HTMLElement);
    expect(asked).toBe(1);
    expect(container.querySelectorAll('button.show-all')).toHaveLength(0);
  });

  it('a short message clipped for transport (a long value it does not show) still offers the rest', () => {
    let asked = 0;
    const { container } = draw([{ type: 'text', text: 'short' }], 'verbatim', () => asked++);
    fireEvent.click(container.querySelector('button.show-all') as HTMLElement);
    expect(asked).toBe(1);
  });
});

describe('the markdown renderer, loaded on first use', () => {
  it('draws the text as it is until the renderer is there, then as markdown', async () => {
    // A fresh copy of the module: this file loaded the renderer above.
    vi.resetModules();
    const fresh = await import('./markdown-on-demand');
    const { container, findByText } = render(<fresh.MarkdownText text="**bold**" />);
    expect(container.textContent).toBe('**bold**');
    expect(container.querySelector('strong')).toBeNull();
    await findByText('bold', { selector: 'strong' });
  });
});
