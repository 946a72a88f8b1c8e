import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { generateSession } from '../../generator';
import { FIXTURES } from '../../test-support/fixtures';
import { Ledger } from '../core/ledger';
import { project } from '../core/projection';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { projectionJson } from '../../shared/projection-json';
import { projectionExport } from './projection-export';
import { MAX_ALL_ENTRIES, sessionHtmlPieces, type HtmlExportContents } from './session-html';

/** The HTML export whole: its pieces joined, as a reader of every chunk gets them. */
function sessionHtml(...args: Parameters<typeof sessionHtmlPieces>): { html: string; included: HtmlExportContents } {
  const e = sessionHtmlPieces(...args);
  return { html: [...e.pieces].join(''), included: e.included };
}

const HOSTILE = '</script><img src=x onerror="globalThis.pwned=1"><!-- ``` \u2028 & "q"';

/** A small ledger whose texts try to break out of the page (and of Markdown fences). */
function hostileLedger(): Ledger {
  const lines = [
    {
      id: 'h',
      parent_id: null,
      ts: '2026-01-01T00:00:00Z',
      prev_hash: null,
      kind: 'header',
      system_prompt: 'sys </script>',
      tools: [],
      model: 'm',
    },
    {
      id: 'u1',
      parent_id: 'h',
      ts: '2026-01-01T00:00:01Z',
      prev_hash: null,
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: HOSTILE }] },
    },
    {
      id: 'a1',
      parent_id: 'u1',
      ts: '2026-01-01T00:00:02Z',
      prev_hash: null,
      kind: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text: 'answer one' }] },
    },
    {
      id: 'u2',
      parent_id: 'a1',
      ts: '2026-01-01T00:00:03Z',
      prev_hash: null,
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: 'second <b>bold</b>' }] },
    },
    {
      id: '"><x',
      parent_id: 'a1',
      ts: '2026-01-01T00:00:04Z',
      prev_hash: null,
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: 'a branch with a hostile id' }] },
    },
  ];
  return Ledger.fromBytes(Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n') + '\n'));
}

/** Sets the page's hash and resolves once its hashchange listeners (the page's own first) have run. */
function navigate(dom: JSDOM, hash: string): Promise<void> {
  const changed = new Promise<void>((resolve) =>
    dom.window.addEventListener('hashchange', () => resolve(), { once: true }),
  );
  dom.window.location.hash = hash;
  return changed;
}

const sha = (s: string): string => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

describe('HTML export', () => {
  it('is self-contained: no URL but #leaf links, a CSP of none plus the hashes of its own blocks', () => {
    const ledger = hostileLedger();
    const out = sessionHtml(ledger, ledger.index.activeLeaf, { key: 'agents/vak/sessions/x/s.jsonl', sessionId: 's' });
    const doc = new JSDOM(out.html).window.document;
    const csp = doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '';
    expect(csp).toMatch(/^default-src 'none'/);
    const scripts = [...doc.querySelectorAll('script')];
    expect(scripts.map((s) => s.getAttribute('type'))).toEqual(['application/json', null]);
    expect(csp).toContain(`script-src ${sha(scripts[1].textContent ?? '')}`);
    expect(csp).toContain(`style-src ${sha(doc.querySelector('style')?.textContent ?? '')}`);
    expect(doc.querySelectorAll('img, iframe, link, object, embed, form, base').length).toBe(0);
    for (const e of doc.querySelectorAll('*')) {
      for (const a of e.getAttributeNames()) {
        expect(a.startsWith('on')).toBe(false);
        if (a === 'src' || a === 'href') expect(e.getAttribute(a)).toMatch(/^#/);
      }
    }
    expect(out.html).not.toMatch(/https?:\/\//);
    // The hostile text is data: inside the JSON element, intact once parsed.
    const data = JSON.parse(scripts[0].textContent ?? '') as { entries: Record<string, string>; chosenLeaf: string };
    expect(JSON.parse(data.entries['u1']).message.content[0].text).toBe(HOSTILE);
    expect(data.chosenLeaf).toBe('"><x');
  });

  it('renders the tree, a leaf from #leaf=, its history and projected context, all as text', async () => {
    const ledger = hostileLedger();
    const out = sessionHtml(ledger, ledger.index.activeLeaf, { key: 'k', sessionId: 's' });
    const dom = new JSDOM(out.html, { runScripts: 'dangerously', url: 'file:///export.html#leaf=u2' });
    const doc = dom.window.document;
    await new Promise((r) => setTimeout(r, 0));
    expect(doc.querySelectorAll('#tree a').length).toBe(5);
    expect(doc.querySelector('#tree a.selected')?.getAttribute('href')).toBe('#leaf=u2');
    const history = doc.getElementById('history')?.textContent ?? '';
    expect(history).toContain('History of u2 (4 entries)');
    expect(history).toContain(JSON.stringify(HOSTILE)); // the entry as JSON text
    const projected = doc.getElementById('projection')?.textContent ?? '';
    expect(projected).toContain('[tail]');
    expect(projected).toContain(HOSTILE);
    // Nothing the ledger says became an element or ran.
    expect(doc.querySelectorAll('img, b, x').length).toBe(0);
    expect((dom.window as unknown as { pwned?: number }).pwned).toBeUndefined();
    // Another deep link, with the hostile id.
    await navigate(dom, '#leaf=' + encodeURIComponent('"><x'));
    expect(doc.getElementById('history')?.textContent).toContain('History of "><x (4 entries)');
    // An unknown id falls back to the chosen leaf.
    await navigate(dom, '#leaf=nope');
    expect(doc.querySelector('#tree a.selected')?.getAttribute('href')).toBe('#leaf=' + encodeURIComponent('"><x'));
    dom.window.close();
  });

  it('a big session exports the chosen chain and says so', () => {
    const ledger = Ledger.fromBytes(
      generateSession({ seed: 4, entries: MAX_ALL_ENTRIES + 800, cwd: '/g', toolResultBytes: [50, 100] }).bytes,
    );
    const out = sessionHtml(ledger, ledger.index.activeLeaf, { key: 'k', sessionId: 'big' });
    expect(out.included.entries).toBe('chain');
    expect(out.included.projectedLeaves).toEqual([ledger.index.ids[ledger.index.activeLeaf]]);
    expect(out.included.treeRows).toBe(ledger.index.count);
    expect(out.html).toContain('the last ');
  });
});

describe('projection export', () => {
  it('JSON is the §9 project --json shape of the same projection', () => {
    const ledger = Ledger.fromBytes(readFileSync(join(FIXTURES, 'packets.jsonl')));
    const p = project(ledger, ledger.index.activeLeaf, { plan: 'auto', profile: DEFAULT_PROFILE });
    const out = projectionExport(p, 'json', 'sess');
    expect(out.mimeType).toBe('application/json');
    const parsed = JSON.parse(out.text) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['leaf', 'system', 'tools', 'messages', 'plan', 'tokens', 'over_budget']);
    expect(parsed).toEqual(JSON.parse(JSON.stringify(projectionJson(p))));
  });

  it('Markdown has a section per message, and no ledger text can close its fence', () => {
    const ledger = hostileLedger();
    const p = project(ledger, ledger.indexOf('u2')!, { plan: 'none', profile: DEFAULT_PROFILE });
    const md = projectionExport(p, 'markdown', 's').text;
    expect(md.match(/^## \d+\. /gm)?.length).toBe(p.messages.length);
    // The hostile text holds ```; its fence is longer, and opens and closes around it.
    const at = md.indexOf(HOSTILE);
    expect(at).toBeGreaterThan(0);
    const before = md.slice(0, at).trimEnd().split('\n').pop();
    expect(before).toBe('````text');
    expect(
      md
        .slice(at + HOSTILE.length)
        .trimStart()
        .startsWith('````'),
    ).toBe(true);
  });
});
