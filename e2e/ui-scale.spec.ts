/**
 * The renderer at scale and the panes' defects, in Chromium through serve mode: keys
 * move the cursor at once and ask for one leaf view where they stop, both panes open aligned
 * at the leaf end and link both ways, the plan strip holds 3,798 turns in its box.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { BIG, expect, screenshot, sessionHash, SMALL, readingTest, test } from './ui-fixture';

/**
 * The leaf each `getLeafView` the page sends asks for, recorded in the page as the frame leaves (a
 * wrapped `WebSocket.send`), so that a read after a frame wait sees every request the page had sent
 * by then; Playwright's own frame events reach the test on their own schedule.
 */
async function tapLeafViews(page: Page): Promise<() => Promise<(string | null)[]>> {
  await page.addInitScript(`(() => {
    const asked = (window.__leafViews = []);
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      if (typeof data === 'string' && data.includes('"method":"getLeafView"')) {
        try { asked.push(JSON.parse(data).req?.leaf ?? null); } catch { asked.push('unparsed'); }
      }
      return send.call(this, data);
    };
  })()`);
  return async () => (await page.evaluate('window.__leafViews.slice()')) as (string | null)[];
}

/** Resolves after two animation frames have run in the page: work due "on the next frame" is done. */
const twoFrames = (page: Page): Promise<unknown> =>
  page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');

/** Is `el`'s box inside its scroll box's visible part? */
const inView = async (page: Page, selector: string): Promise<boolean> =>
  (await page.evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    const box = el && el.closest('.pane-scroll, .tree-scroll');
    if (!el || !box) return false;
    const r = el.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    return r.bottom > b.top && r.top < b.bottom;
  })()`)) as boolean;

test.describe('at scale', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  readingTest(
    'five quick k presses: the cursor moves at once, one leaf view for the fifth row',
    async ({ page, served }) => {
      const leafViews = await tapLeafViews(page);
      await served.open(page, sessionHash(BIG));
      const panes = page.locator('.leaf-panes[data-leaf-id]');
      await expect(panes).toHaveAttribute('aria-busy', 'false');
      // The tree opened on the active leaf, in view.
      const cursor = page.locator('.tree-row.cursor');
      await expect(cursor).toBeVisible();
      const start = Number((await cursor.getAttribute('id'))?.replace('tree-row-', ''));
      const before = (await leafViews()).length;
      // As fast as a held key repeats: five key downs in one task.
      await page.evaluate(
        `for (let i = 0; i < 5; i++) document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', bubbles: true }))`,
      );
      await expect(page.locator(`#tree-row-${start - 5}.cursor`)).toBeVisible();
      const fifth = await page.locator(`#tree-row-${start - 5}`).getAttribute('data-entry-id');
      await expect(panes).toHaveAttribute('data-leaf-id', fifth ?? '');
      await expect(panes).toHaveAttribute('aria-busy', 'false');
      // Keys ask on the frame after the last one: past two frames, nothing more may be asked.
      await twoFrames(page);
      expect((await leafViews()).slice(before)).toEqual([fifth]);
      // PageDown moves the selection by a page, not only the scroll.
      await page.keyboard.press('Home');
      await expect(page.locator('#tree-row-0.cursor')).toBeVisible();
      await page.keyboard.press('PageDown');
      const paged = page.locator('.tree-row.cursor');
      const row = Number((await paged.getAttribute('id'))?.replace('tree-row-', ''));
      expect(row).toBeGreaterThan(10);
      await expect(panes).toHaveAttribute('data-leaf-id', (await paged.getAttribute('data-entry-id')) ?? '');
    },
  );

  readingTest('both panes open at the leaf end, and link both ways to any message', async ({ page, served }) => {
    await served.open(page, sessionHash(BIG));
    const history = page.getByRole('region', { name: 'History' });
    const projected = page.getByRole('region', { name: 'Projected context' });
    await expect(page.locator('.leaf-panes[data-leaf-id]')).toHaveAttribute('aria-busy', 'false');
    await expect(projected.locator('.projected-msg').first()).toBeVisible();
    // Aligned: the newest entry and the newest message are in view, the first ones are not.
    const last = await history.locator('.history-item').last().getAttribute('data-entry-id');
    expect(await inView(page, `.history-pane .history-item[data-entry-id="${last}"]`)).toBe(true);
    const lastMsg = await projected.locator('.projected-msg').last().getAttribute('data-message-index');
    expect(await inView(page, `.projected-pane .projected-msg[data-message-index="${lastMsg}"]`)).toBe(true);
    expect(await inView(page, '.projected-pane .projected-msg[data-message-index="0"]')).toBe(false);
    await screenshot(page, 'leaf-panes-1280');

    // History → projected: the earliest "→ #n" link (carded turns have none: their card is sent)
    // scrolls the projected pane to a message that is not on screen. Only a link inside the scroll
    // box counts: on a loaded machine the rows drawn at the end may still be there, off screen, when
    // the box has already been scrolled to the top, and are then replaced by the top's rows.
    await page.evaluate(`(async () => {
      const el = document.querySelector('.history-pane .pane-scroll');
      const anyOnScreen = (selector) => {
        const box = el.getBoundingClientRect();
        return [...el.querySelectorAll(selector)].some((b) => {
          const r = b.getBoundingClientRect();
          return r.bottom > box.top && r.top < box.bottom;
        });
      };
      const onScreen = () => anyOnScreen('.projected-as button');
      const placeholderOnScreen = () => anyOnScreen('.history-placeholder');
      for (let top = 0; top < el.scrollHeight; top += 200) {
        el.scrollTop = top;
        // The virtual list draws a scroll's rows on a later frame, as placeholders until their page
        // is in: wait for frames until none is on screen (or a frame budget runs out).
        await new Promise((r) => {
          let budget = 1200;
          const tick = () => (--budget > 0 && placeholderOnScreen() ? requestAnimationFrame(tick) : r());
          requestAnimationFrame(() => requestAnimationFrame(tick));
        });
        if (onScreen()) return;
      }
    })()`);
    const link = history.locator('.projected-as button').first();
    await expect(link).toBeVisible();
    const n = (await link.textContent())?.match(/#(\d+)/)?.[1];
    await link.click();
    const target = projected.locator(`.projected-msg[data-message-index="${n}"]`);
    await expect(target).toBeVisible();
    await expect(target).toHaveClass(/linked/);
    expect(await inView(page, `.projected-pane .projected-msg[data-message-index="${n}"]`)).toBe(true);

    // Projected → history: a late message's source link scrolls the History back down to it.
    await projected.locator('.pane-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight));
    const source = projected.locator('.msg-sources button[title^="Show "]').last();
    await expect(source).toBeVisible();
    const title = (await source.getAttribute('title')) ?? '';
    const id = title.replace(/^Show /, '').replace(/ in the History$/, '');
    await history.locator('.pane-scroll').evaluate((el) => (el.scrollTop = 0));
    await source.click();
    const entry = history.locator(`.history-item[data-entry-id="${id}"]`);
    await expect(entry).toBeVisible();
    await expect(entry).toHaveClass(/linked/);
    await screenshot(page, 'leaf-panes-linked-1280');
  });

  test('the plan strip holds 3,798 turns inside its box; a click goes to a turn', async ({ page, served }) => {
    // A session of 3,798 one-question turns, written as an agent would (hash-linked), beside the demo's.
    const small = join(served.home, ...SMALL.split('/'));
    const key = SMALL.replace(/[^/]+\.jsonl$/, 'many-turns.jsonl');
    const file = join(served.home, ...key.split('/'));
    const header = JSON.stringify({
      ...(JSON.parse(readFileSync(small, 'utf8').split('\n', 1)[0]) as object),
      session_id: 'many-turns',
    });
    const lines = [header];
    let parent = (JSON.parse(header) as { id: string }).id;
    let t = Date.UTC(2026, 10, 22, 11, 0, 0);
    for (let i = 0; i < 3798; i++) {
      for (const [role, text] of [
        ['user', `question ${i}`],
        ['assistant', `answer ${i}`],
      ] as const) {
        const id = `t${i}-${role[0]}`;
        const prev = createHash('sha256')
          .update(lines[lines.length - 1], 'utf8')
          .digest('hex');
        lines.push(
          JSON.stringify({
            id,
            parent_id: parent,
            ts: new Date((t += 1000)).toISOString(),
            prev_hash: prev,
            kind: 'message',
            message: { role, content: [{ type: 'text', text }] },
          }),
        );
        parent = id;
      }
    }
    writeFileSync(file, lines.map((l) => `${l}\n`).join(''));

    await served.open(page, sessionHash(key, '&plan=none'));
    const strip = page.locator('.plan-strip');
    await expect(strip).toHaveAttribute('data-turns', /\d{4}/, { timeout: 30_000 });
    const turns = Number(await strip.getAttribute('data-turns'));
    expect(turns).toBeGreaterThanOrEqual(3797);
    const box = await strip.boundingBox();
    const next = await page
      .locator('.plan-bar')
      .getByRole('button', { name: /^compare/ })
      .boundingBox();
    expect(box && next && box.x + box.width <= next.x + 1).toBe(true);
    const segs = await strip.locator('.strip-seg').evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { left: r.left, right: r.right };
      }),
    );
    expect(segs.length).toBeGreaterThan(0);
    expect(segs.length).toBeLessThanOrEqual(Math.ceil((box?.width ?? 0) / 4) + 1);
    for (const s of segs) expect(s.right).toBeLessThanOrEqual((box?.x ?? 0) + (box?.width ?? 0) + 1);
    // The tooltip names the turn under the pointer; a click pins it (the tree shows its row).
    const first = strip.locator('.strip-seg').first();
    await first.hover({ position: { x: 1, y: 5 } });
    await expect(first).toHaveAttribute('title', /^turn t\d+-u · full/);
    const turn = ((await first.getAttribute('title')) ?? '').split(' ')[1];
    await first.click({ position: { x: 1, y: 5 } });
    await expect(page.locator(`.tree-row[data-entry-id="${turn}"]`)).toHaveClass(/linked/);
    await screenshot(page, 'plan-strip-3798-1280');
  });
});
