// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentBlock } from './content-block';

afterEach(cleanup);

/** Ledger text that would run script or navigate if any of it became live DOM. */
const HOSTILE = [
  'Plain **bold** words.',
  '<img src=x onerror="globalThis.__pwned = 1">',
  '<script>globalThis.__pwned = 2</script>',
  '<a href="javascript:globalThis.__pwned=3">raw anchor</a>',
  '[click me](javascript:globalThis.__pwned=4) and [docs](https://example.com/a)',
  '![pic](javascript:globalThis.__pwned=5)',
].join('\n\n');

describe('content blocks', () => {
  it('renders markdown safely: raw HTML and javascript: links never become live DOM', () => {
    const { container } = render(<ContentBlock block={{ type: 'text', text: HOSTILE }} />);
    // Markdown itself is drawn…
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    // …raw HTML is not: no element from the text, no handler attribute, nothing to run.
    for (const tag of ['img', 'script', 'a', 'iframe']) expect(container.querySelector(tag)).toBeNull();
    const attrs = [...container.querySelectorAll('*')].flatMap((el) => el.getAttributeNames());
    expect(attrs.filter((a) => a.startsWith('on') || a === 'href' || a === 'src')).toEqual([]);
    // Links stay text; a javascript: address is not even kept in the tooltip.
    const links = [...container.querySelectorAll('.md-link')];
    expect(links.map((l) => l.textContent)).toEqual(['click me', 'docs']);
    expect(links.map((l) => l.getAttribute('title') ?? '')).toEqual(['', 'https://example.com/a']);
    expect(container.querySelector('.md-image')?.getAttribute('title') ?? '').not.toContain('javascript');
    expect(new XMLSerializer().serializeToString(container)).not.toMatch(/javascript:/i);
    expect((globalThis as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('draws a tool result as text with its ANSI colours as spans, no escape bytes left', () => {
    const { container } = render(
      <ContentBlock block={{ type: 'tool_result', tool_use_id: 't1', content: '\u001b[31msrc/a.rs:14\u001b[0m ok' }} />,
    );
    expect(container.querySelector('.ansi .ansi-fg-31')?.textContent).toBe('src/a.rs:14');
    expect(container.querySelector('.ansi')?.textContent).toBe('src/a.rs:14 ok');
  });
});
