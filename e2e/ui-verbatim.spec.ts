/**
 * The projected context shows each message as the model got it: for leaves of the demo home and
 * of a session full of characters a rendering loses (tags, `<`, `&`, CRLF, tabs, zero-width and
 * right-to-left characters, ANSI codes), every block's text in the pane equals, character for
 * character, its text in `vak-explorer project --json`; what is clipped for length says so, and
 * its one "show all" shows the rest, also character for character.
 *
 * How a block's text is read from the JSON (as the pane draws it): a text's or thinking's `text`;
 * a tool call's `input` and any other value as JSON text (2-space indent); a tool result's string
 * `content`. ANSI escape codes are characters like any other: the pane keeps the ESC in its text
 * (a "␛" label shows where it is), so they are compared as they are.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { LedgerWriter, Rng } from '../src/generator';
import { cwdHash } from '../src/main/core/fnv1a64';
import { sessionKey } from '../src/shared/session-key';
import { CLI, ROOT } from '../src/test-support/serve-process';
import { BIG, expect, screenshot, sessionHash, SMALL, readingTest, test } from './ui-fixture';

/** The page's own (this file is typed without the DOM's names). */
declare function requestAnimationFrame(callback: () => void): number;

/** The renderer's COLLAPSE_AT: a longer block shows this many characters until "show all". */
const CLIP_AT = 2000;

const TAGS =
  'Follow <rules>answer in one line</rules> and put the result in <answer></answer> tags. Compare a<b and b>c.';

/** One of each kind of character a rendering tends to drop, rewrite or hide. */
const AWKWARD = [
  TAGS,
  'A & B &amp; C &lt;not an entity&gt; <br> <!-- a comment --> <script>alert(1)</script>',
  'tab\there\tand\t\ttwo tabs',
  'CRLF line\r\nnext line\r\n',
  'zero\u200bwidth\u200cnon\u200djoiner\ufeffbom\u00adsoft',
  'RTL: שלום עולם مرحبا and \u202eoverride\u202c and \u2067isolate\u2069 end',
  'ANSI: \u001b[31mred\u001b[0m \u001b[1;32mbold green\u001b[0m \u001b[2K cleared',
  '**markdown** _as_ `characters`\n# not a heading\n- not a list',
  '  leading spaces, trailing   ',
].join('\n');

type Block = { [k: string]: unknown };
type Message = { role: string; content: unknown[]; fidelity: string };
type Projection = { leaf: string; system: string; messages: Message[] };

/** A block's text as the pane shows it (see the header); null for an image. */
function blockText(b: unknown): string | null {
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return JSON.stringify(b, null, 2);
  const block = b as Block;
  const text = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v, null, 2));
  switch (block.type) {
    case 'text':
    case 'thinking':
      return text(block.text);
    case 'tool_use':
      return text(block.input ?? null);
    case 'tool_result':
      return text(block.content);
    case 'image':
      return null;
    default:
      return JSON.stringify(block, null, 2);
  }
}

function project(file: string, leaf: string): Projection {
  const r = spawnSync(process.execPath, [CLI, 'project', file, '--leaf', leaf, '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  if (r.status !== 0) throw new Error(`project ${leaf} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Projection;
}

function leavesOf(file: string): string[] {
  const r = spawnSync(process.execPath, [CLI, 'tree', file, '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  return (JSON.parse(r.stdout) as { leaves: string[] }).leaves;
}

/** The session with every awkward character, written hash-linked; returns its key and ids. */
function writeAwkwardSession(home: string) {
  const cwd = '/home/ana/projects/verbatim';
  const sessionId = '01a30000-0000-7000-8000-0000000000aa';
  const w = new LedgerWriter(new Rng(7), Date.UTC(2026, 0, 5, 9, 0, 0));
  const msg = (parent: string, role: string, content: unknown[]) =>
    w.append('message', parent, { message: { role, content } });
  const h = w.append('header', null, {
    session_id: sessionId,
    app_version: '0.9.3',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    system_prompt: `You are vak.\r\n<system-reminder>\tkeep <tags> & entities &amp; as they are</system-reminder>`,
    tools: [],
    permission_mode: 'ask',
    cwd,
    parent_session: null,
  });
  const u1 = msg(h, 'user', [{ type: 'text', text: `${TAGS}\n${AWKWARD}` }]);
  const a1 = msg(u1, 'assistant', [
    { type: 'thinking', text: `thinking: ${AWKWARD}` },
    { type: 'text', text: AWKWARD },
    {
      type: 'tool_use',
      id: 'toolu_1',
      name: 'run_command',
      input: { command: "printf 'a<b & c\\r\\n'", note: AWKWARD },
    },
  ]);
  const t1 = msg(a1, 'tool', [
    {
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: `\u001b[31merror:\u001b[0m a<b & c\r\n\tindented\u200b line\n${AWKWARD}\n`,
    },
  ]);
  const a2 = msg(t1, 'assistant', [{ type: 'text', text: `Done.\n${AWKWARD}` }]);
  // 200,000 characters: clipped for transport and for length.
  let big = '';
  while (big.length < 200_000) big += `${AWKWARD}\n`;
  big = big.slice(0, 200_000);
  const u2 = msg(a2, 'user', [{ type: 'text', text: big }]);
  const key = sessionKey('vak', cwdHash(cwd), sessionId);
  const file = join(home, key);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, w.finish());
  return { key, file, ids: { u1, a1, t1, a2, u2 } };
}

/** What the pane shows of one message. */
type Shown = { index: number; blocks: { text: string | null; note: string | null }[]; showAll: number };

/** The message of the pane drawn at `index`, as the pane shows it (undefined while it is not drawn). */
async function shownMessage(pane: Locator, index: number): Promise<Shown | undefined> {
  return pane.locator('.pane-scroll').evaluate(
    (box, i) =>
      [...box.querySelectorAll(`article.projected-msg[data-message-index="${i}"]`)].map((el) => ({
        index: i,
        blocks: [...el.querySelectorAll(':scope > .msg-body > .block')].map((b) => ({
          text: b.querySelector(':scope > pre.verbatim')?.textContent ?? null,
          note: b.querySelector(':scope > .clip-note')?.textContent ?? null,
        })),
        showAll: el.querySelectorAll('button.show-all').length,
      }))[0],
    index,
  );
}

/**
 * Reads the pane from where it is scrolled to its bottom in one call into the page: each time no
 * placeholder is left in it, every drawn message not yet read (not in `done`) is read as it shows
 * it, then the bottom of the last one read that is still drawn is scrolled to the top (a "show
 * all" may have moved the list's window past the others). Stops early at a clipped message (one
 * with a "show all"), unread, so that it is clicked as a user does.
 */
async function readOn(
  pane: Locator,
  done: readonly number[],
  total: number,
): Promise<{ read: Shown[]; clipped: Shown | null }> {
  return pane.locator('.pane-scroll').evaluate(
    async (box, { done, total }) => {
      const describe = (el: (typeof box)['firstElementChild'] & object) => ({
        index: Number(el.getAttribute('data-message-index')),
        blocks: [...el.querySelectorAll(':scope > .msg-body > .block')].map((b) => ({
          text: b.querySelector(':scope > pre.verbatim')?.textContent ?? null,
          note: b.querySelector(':scope > .clip-note')?.textContent ?? null,
        })),
        showAll: el.querySelectorAll('button.show-all').length,
      });
      const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
      const seen = new Set(done);
      const read: ReturnType<typeof describe>[] = [];
      for (let step = 0; seen.size < total; step++) {
        if (step >= 2000) throw new Error(`messages read after ${step} steps: ${[...seen].join(',')}`);
        // The list draws after a scroll on the next frames; a placeholder is a row not drawn yet.
        await frame();
        await frame();
        const until = performance.now() + 20_000;
        while (box.querySelector('.projected-placeholder')) {
          if (performance.now() > until) throw new Error('a placeholder stayed in the pane for 20 s');
          await frame();
        }
        for (const el of box.querySelectorAll('article.projected-msg')) {
          const s = describe(el);
          if (seen.has(s.index)) continue;
          if (s.showAll > 0) return { read, clipped: s };
          read.push(s);
          seen.add(s.index);
        }
        if (seen.size >= total) break;
        const drawn = [...box.querySelectorAll('article.projected-msg')].filter((el) =>
          seen.has(Number(el.getAttribute('data-message-index'))),
        );
        const last = drawn.at(-1);
        if (!last) box.scrollTop += Math.max(1, box.clientHeight / 2);
        else box.scrollTop += Math.max(1, last.getBoundingClientRect().bottom - box.getBoundingClientRect().top - 4);
      }
      return { read, clipped: null };
    },
    { done: [...done], total },
  );
}

/**
 * Goes through the projected pane top to bottom and checks each message against the CLI's:
 * a clipped message first as clipped (its first CLIP_AT characters, a note, one "show all"),
 * then, after its "show all", whole. Returns how many messages were clipped.
 */
async function checkPane(page: Page, want: Projection): Promise<number> {
  const pane = page.getByRole('region', { name: 'Projected context' });
  await expect(pane.locator('.pane-head')).toContainText(`leaf ${want.leaf}`);
  await expect(pane.locator('.system-prompt pre.verbatim')).toHaveJSProperty('textContent', want.system);
  await pane.locator('.pane-scroll').evaluate((el) => (el.scrollTop = 0));
  const checked = new Set<number>();
  let clipped = 0;
  while (checked.size < want.messages.length) {
    const { read, clipped: s } = await readOn(pane, [...checked], want.messages.length);
    for (const m of read) {
      const expected = want.messages[m.index].content.map(blockText);
      expect(
        m.blocks.map((b) => b.text),
        `message ${m.index} (${want.messages[m.index].fidelity})`,
      ).toEqual(expected);
      expect(m.blocks.every((b) => b.note === null)).toBe(true);
      checked.add(m.index);
    }
    if (!s) continue;
    // Clipped: says so, one button, the start of each long block exactly.
    const expected = want.messages[s.index].content.map(blockText);
    expect(s.showAll, `message ${s.index}: one "show all"`).toBe(1);
    s.blocks.forEach((b, k) => {
      const full = expected[k];
      if (full === null || full.length <= CLIP_AT)
        expect(b, `message ${s.index} block ${k}`).toEqual({ text: full, note: null });
      else {
        expect(b.text, `message ${s.index} block ${k}: its first characters`).toBe(full.slice(0, CLIP_AT));
        expect(b.note, `message ${s.index} block ${k}: says it is clipped`).toMatch(
          /^… (at least )?[\d,]+ more characters$/,
        );
      }
    });
    const article = pane.locator(`article.projected-msg[data-message-index="${s.index}"]`);
    await article.locator('button.show-all').click();
    await expect
      .poll(() => shownMessage(pane, s.index), { timeout: 30_000 })
      .toEqual({ index: s.index, blocks: expected.map((text) => ({ text, note: null })), showAll: 0 });
    clipped++;
    checked.add(s.index);
  }
  return clipped;
}

/** Opens a session at a leaf as a fresh page load (a changed hash alone is a same-page navigation). */
async function openAt(
  page: Page,
  served: { open(page: Page, hash?: string): Promise<void> },
  key: string,
  leaf: string,
) {
  await page.goto('about:blank');
  await served.open(page, sessionHash(key, `&leaf=${leaf}`));
}

test.describe('verbatim text', () => {
  test.use({ viewport: { width: 1500, height: 900 } });
  test.setTimeout(240_000);

  test('a session full of awkward characters: every leaf, every block, character for character', async ({
    page,
    served,
  }) => {
    const s = writeAwkwardSession(served.home);
    for (const leaf of [s.ids.t1, s.ids.a2, s.ids.u2]) {
      const want = project(s.file, leaf);
      await openAt(page, served, s.key, leaf);
      const clipped = await checkPane(page, want);
      // The 200,000-character message is clipped (for transport too) and has one "show all".
      expect(clipped).toBe(leaf === s.ids.u2 ? 1 : 0);
    }

    // The tag message, as a user sees it: a screenshot of the pane at the first leaf.
    await openAt(page, served, s.key, s.ids.t1);
    const pane = page.getByRole('region', { name: 'Projected context' });
    const first = pane.locator('article.projected-msg[data-message-index="0"] .block-text pre.verbatim');
    await expect(first).toHaveJSProperty('textContent', `${TAGS}\n${AWKWARD}`);
    await expect(first).toContainText('<rules>answer in one line</rules>');
    await page.screenshot({ path: '/tmp/verbatim-projected.png' });
    await screenshot(page, 'verbatim-projected');

    // The History pane is verbatim too: the directive's entry, opened.
    const history = page.getByRole('region', { name: 'History' });
    const row = history.locator(`.history-item[data-entry-id="${s.ids.u1}"]`);
    await row.getByTitle('Show the entry').click();
    await expect(row.locator('.block-text pre.verbatim')).toHaveJSProperty('textContent', `${TAGS}\n${AWKWARD}`);

    // Markdown is a view switched on in the pane's head, remembered across a reload; raw HTML stays text in it.
    await pane.getByRole('button', { name: 'markdown' }).click();
    await expect(pane.getByRole('button', { name: 'markdown' })).toHaveAttribute('aria-pressed', 'true');
    await page.reload();
    const again = page.getByRole('region', { name: 'Projected context' });
    await expect(again.getByRole('button', { name: 'markdown' })).toHaveAttribute('aria-pressed', 'true');
    const md = again.locator('article.projected-msg[data-message-index="0"] .markdown');
    await expect(md).toContainText(TAGS);
    await expect(md).toContainText('<script>alert(1)</script>');
    expect(await again.locator('script, img, a[href]').count()).toBe(0);
    await page.screenshot({ path: '/tmp/verbatim-markdown.png' });
    await again.getByRole('button', { name: 'markdown' }).click();
    await expect(
      again.locator('article.projected-msg[data-message-index="0"] .block-text pre.verbatim'),
    ).toHaveJSProperty('textContent', `${TAGS}\n${AWKWARD}`);
  });

  readingTest('leaves of the demo home: every block as `project --json` has it', async ({ page, served }) => {
    for (const key of [SMALL, BIG]) {
      const file = join(served.home, key);
      const leaves = leavesOf(file);
      // Three leaves: the last, the first and one from the middle of the tree's list.
      const picks = [...new Set([leaves.at(-1), leaves[0], leaves[Math.floor(leaves.length / 2)]])].filter(
        (l): l is string => typeof l === 'string',
      );
      for (const leaf of picks) {
        const want = project(file, leaf);
        await openAt(page, served, key, leaf);
        await checkPane(page, want);
      }
    }
  });
});
