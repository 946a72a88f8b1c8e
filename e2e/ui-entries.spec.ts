import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIG, expect, screenshot, sessionHash, SMALL, readingTest, test } from './ui-fixture';

/**
 * The browser globals the page.evaluate callbacks below use. They run in the page; this file is
 * type-checked with the Node libraries only (tsconfig.node.json), so they are declared here, in this module alone.
 */
interface PageElement {
  parentElement: PageElement | null;
  textContent: string | null;
  offsetParent?: unknown;
  contains(other: unknown): boolean;
}
declare const document: {
  body: PageElement;
  elementFromPoint(x: number, y: number): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
};
declare function requestAnimationFrame(callback: () => void): number;
declare function getComputedStyle(el: unknown): { color: string; backgroundColor: string; lineHeight: string };

const REVIEWER = 'agents/reviewer/sessions/70929a3c84065db2/01a1f82c-5b45-725c-805f-4b4c88f15899.jsonl';
const CHILD_RUN = '01a1f82c-8453-7a28-b69c-f604fd936efd';

import { expandFirst, history, onlyKinds } from './history-helpers';

readingTest(
  'entry views: a receipt, a turn card whose link lights its entry, a child run and back',
  async ({ page, served }) => {
    await served.open(page, sessionHash(BIG));
    await expect(page.getByRole('region', { name: 'Session header' })).toContainText('claude-sonnet-4-5');

    await onlyKinds(page, ['receipt']);
    const receipt = await expandFirst(page, 'receipt');
    await expect(receipt.getByRole('table', { name: 'Attempts' })).toBeVisible();
    await expect(receipt).toContainText('prefix digest');
    await screenshot(page, 'entry-receipt-1500');

    // A turn card with its directive and messages: a click on a link lights that entry and scrolls to it.
    await onlyKinds(page, ['turn_card', 'message']);
    const card = await expandFirst(page, 'turn_card');
    const links = card.locator('.ev-entry-link');
    await expect(links.nth(1)).toBeVisible();
    // The turn's last tool result (a message: shown under this filter).
    const link = links.filter({ has: page.locator('.ev-entry-role', { hasText: /^tool$/ }) }).last();
    const target = (await link.getAttribute('data-link-to')) ?? '';
    await link.click();
    // Hovering a row lights that row instead of the pin (the panes' rule): leave the pane, as a reader looks on.
    await page.mouse.move(5, 5);
    const lit = history(page).locator(`.history-item[data-entry-id="${target}"]`);
    await expect(lit).toHaveClass(/linked/);
    await expect(lit).toBeInViewport();
    await expect(page.locator(`.tree-row[data-entry-id="${target}"]`)).toHaveClass(/linked/);

    // child_run → the reviewer session; its card links back to the spawning entry.
    await served.open(page, sessionHash(BIG, `&leaf=${CHILD_RUN}`));
    await onlyKinds(page, ['child_run']);
    const run = await expandFirst(page, 'child_run');
    await run.getByRole('button', { name: /open reviewer session/ }).click();
    await expect.poll(() => decodeURIComponent(page.url())).toContain(`s=${REVIEWER}`);
    const sessionCard = page.getByRole('region', { name: 'Session header' });
    await expect(sessionCard).toContainText('child of');
    await screenshot(page, 'entry-child-1500');
    await sessionCard.getByRole('button', { name: /at …fd936efd/ }).click();
    await expect.poll(() => decodeURIComponent(page.url())).toContain(`s=${BIG}`);
    await expect.poll(() => decodeURIComponent(page.url())).toContain(`leaf=${CHILD_RUN}`);
    // The library shows the link too, beside the reviewer's row.
    const libLink = page.getByRole('navigation', { name: 'Library' }).getByRole('button', { name: /child of/ });
    await expect(libLink).toBeVisible();
    await libLink.click();
    await expect.poll(() => decodeURIComponent(page.url())).toContain(`leaf=${CHILD_RUN}`);
  },
);

test('the library warning badge is visible beside a long, ellipsised title', async ({ page, served }) => {
  // A torn tail (no final \n, no agent holding the file): the row shows "tail" before it is opened.
  appendFileSync(join(served.home, SMALL), '{"id":"torn');
  await page.setViewportSize({ width: 1280, height: 800 });
  await served.open(page);
  const row = page.locator(`.session-item[data-session-key="${SMALL}"]`);
  const badge = row.locator('.warn-badge');
  await expect(badge).toBeVisible();
  const rowBox = await row.boundingBox();
  const badgeBox = await badge.boundingBox();
  expect(rowBox && badgeBox).toBeTruthy();
  if (!rowBox || !badgeBox) return;
  expect(badgeBox.width).toBeGreaterThan(10);
  expect(badgeBox.x).toBeGreaterThanOrEqual(rowBox.x);
  expect(badgeBox.x + badgeBox.width).toBeLessThanOrEqual(rowBox.x + rowBox.width + 0.5);
  // Not clipped or covered: the badge is what is drawn at its own centre.
  const onTop = await badge.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !!hit && el.contains(hit);
  });
  expect(onTop).toBe(true);
  // Its tooltip explains it in a sentence (a small file is read when listed: the reader's warning count).
  await expect(badge).toHaveAttribute(
    'title',
    /Torn tail: the last line has no newline|1 reader warning: lines that are torn/,
  );
});

readingTest(
  'icons are inline SVG with a size; times show the date; work ids stay on one line',
  async ({ page, served }) => {
    await served.open(page, sessionHash(BIG));
    const tree = page.getByRole('region', { name: 'Session tree' });
    await expect(tree.locator('.tree-row:not(.placeholder)').first()).toBeVisible();
    // The branch mark (was ⑂) and the kind icons (⧉ …) draw without any font. Scroll to the first branch point.
    const branch = tree.locator('.mark.branch svg.icon-branch').first();
    const scroller = tree.locator('.tree-scroll');
    // In the page, a step at a time: each step waits until the rows scrolled to are drawn.
    await scroller.evaluate(async (el) => {
      const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
      for (let top = 0; top < 20_000 && !el.querySelector('.mark.branch svg.icon-branch'); top += 400) {
        el.scrollTo(0, top);
        await frame();
        await frame();
        const until = performance.now() + 20_000;
        while (el.querySelector('.tree-row.placeholder') && performance.now() < until) await frame();
      }
    });
    await expect(branch).toBeVisible();
    // The compaction icon (was ⧉), in the History pane filtered to compactions.
    await onlyKinds(page, ['compaction']);
    const compaction = history(page).locator('.kind-icon svg.icon-compaction').first();
    await expect(compaction).toBeVisible();
    for (const icon of [branch, tree.locator('.kind-icon svg').first(), compaction]) {
      const box = await icon.boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(6);
      expect(box?.height ?? 0).toBeGreaterThan(6);
    }
    await page
      .locator('.tree-row .kind-icon svg.icon-compaction')
      .first()
      .scrollIntoViewIfNeeded()
      .catch(() => undefined);
    // The demo's entries are from another day than today: the date is shown, the full stamp on hover.
    const time = tree.locator('.row-time').first();
    const today = new Date();
    const stamp = (await time.textContent()) ?? '';
    const day = await time.getAttribute('title');
    expect(day).toMatch(/ local · 2026-11-20T.*Z as recorded$/);
    if (today.getFullYear() === 2026 && !(today.getMonth() === 10 && today.getDate() === 20))
      expect(stamp).toMatch(/^20 Nov \d\d:\d\d$/);
    // Work panel: ids and the jump to the last entry stay on one line.
    await page
      .getByRole('contentinfo', { name: 'Plan and panels' })
      .getByRole('button', { name: /^work \d/ })
      .click();
    const panel = page.getByRole('region', { name: 'Work' });
    const jump = panel.locator('.work-last button').first();
    await expect(jump).toBeVisible();
    const lineHeight = await jump.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 16);
    expect((await jump.boundingBox())?.height ?? 99).toBeLessThan(lineHeight * 1.8);
    await screenshot(page, 'entry-icons-work-1500');
  },
);

for (const scheme of ['light', 'dark'] as const) {
  test(`status colours used as text meet WCAG AA (4.5:1) in the ${scheme} theme`, async ({ page, served }) => {
    appendFileSync(join(served.home, SMALL), '{"id":"torn');
    await page.emulateMedia({ colorScheme: scheme });
    await served.open(page, sessionHash(BIG));
    await expect(page.locator('.warn-badge').first()).toBeVisible();
    await expect(history(page).locator('.history-item').first()).toBeVisible();
    await history(page).locator('.history-item').first().hover();
    const worst = await page.evaluate(() => {
      const rgb = (c: string): number[] | null => {
        const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(c);
        if (!m) return null;
        if (m[4] !== undefined && parseFloat(m[4]) === 0) return null;
        return [m[1], m[2], m[3]].map(Number);
      };
      const lum = (c: number[]): number => {
        const [r, g, b] = c.map((v) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const background = (el: PageElement | null): number[] => {
        for (let e = el; e; e = e.parentElement) {
          const c = rgb(getComputedStyle(e).backgroundColor);
          if (c) return c;
        }
        return rgb(getComputedStyle(document.body).backgroundColor) ?? [255, 255, 255];
      };
      // Every status colour used as text: warnings, errors, links, ids, roles, dim text, marks, badges.
      const selectors = [
        '.warn-badge',
        '.dim',
        '.history-id',
        '.row-role',
        '.row-time',
        '.projected-as',
        '.hidden-reason',
        '.mark',
        '.fid-badge',
        '.msg-role',
        '.demo-label',
        '.session-card-facts',
        '.ev-link',
        '.session-parent',
      ];
      const out: { sel: string; ratio: number; fg: string; text: string }[] = [];
      for (const sel of selectors)
        for (const el of [...document.querySelectorAll(sel)].slice(0, 40)) {
          if (!el.offsetParent || !el.textContent?.trim()) continue;
          const fg = rgb(getComputedStyle(el).color);
          if (!fg) continue;
          const a = lum(fg);
          const b = lum(background(el));
          const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
          out.push({ sel, ratio, fg: getComputedStyle(el).color, text: el.textContent.trim().slice(0, 30) });
        }
      return out;
    });
    const sels = new Set(worst.map((w) => w.sel));
    for (const s of ['.warn-badge', '.dim', '.history-id', '.fid-badge']) expect(sels, s).toContain(s);
    const failing = worst.filter((w) => w.ratio < 4.5);
    expect(failing).toEqual([]);
    await screenshot(page, `entry-contrast-${scheme}`);
  });
}
