/**
 * Context over time, cost and export in Chromium through serve mode:
 * the chart selects leaves and applies the fitted bytes per token, the cost panel shows the
 * session's money, and the exported HTML opens offline at a `#leaf=` link.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { BIG, expect, ROOT, screenshot, sessionHash, readingTest, test } from './ui-fixture';

/** The bundled demo home's main session (its usage follows its content: scripts/demo-usage.ts). */
const DEMO_MAIN = 'agents/vak/sessions/70929a3c84065db2/01a1f7f8-3000-7889-99d8-18977d6aa224.jsonl';

const chart = (page: Page) => page.getByRole('slider', { name: /Context size per turn end/ });
const leafShown = (page: Page) => page.locator('.leaf-panes').getAttribute('data-leaf-id');

async function openBig(page: Page, served: { open(p: Page, h?: string): Promise<void> }, extra = '') {
  await served.open(page, sessionHash(BIG, extra));
  await expect(page.getByRole('region', { name: 'Context over time' })).toBeVisible();
  await expect.poll(async () => Number(await chart(page).getAttribute('aria-valuemax'))).toBeGreaterThan(10);
  await expect(page.locator('.leaf-panes[aria-busy="false"]')).toBeVisible();
}

test.describe('context over time', () => {
  readingTest('the chart is drawn above the tree; a click on a column selects that leaf', async ({ page, served }) => {
    for (const [w, h] of [
      [1280, 800],
      [1500, 900],
    ]) {
      await page.setViewportSize({ width: w, height: h });
      await openBig(page, served);
      await screenshot(page, `context-chart-${w}x${h}`);
    }
    const box = await chart(page).boundingBox();
    if (!box) throw new Error('the chart has no box');
    // Something is drawn: the canvas is not blank.
    const inked = (await page.evaluate(`(() => {
      const c = document.querySelector('.chart-canvas-wrap canvas');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
      return n;
    })()`)) as number;
    expect(inked).toBeGreaterThan(1000);
    const before = await leafShown(page);
    // Hover a column a third of the way in: the tooltip names its leaf; a click selects it.
    const x = box.x + 46 + (box.width - 56) / 3;
    await page.mouse.move(x, box.y + box.height / 2);
    const tip = page.getByRole('tooltip');
    await expect(tip).toBeVisible();
    await expect(tip).toContainText(/turn \d+ of \d+/);
    const leaf = await tip.getAttribute('data-leaf');
    expect(leaf).toBeTruthy();
    expect(leaf).not.toBe(before);
    await page.mouse.click(x, box.y + box.height / 2);
    await expect.poll(() => leafShown(page)).toBe(leaf);
    expect(page.url()).toContain(`leaf=${leaf}`);
    // The keyboard does the same: → then Enter selects the next column's leaf.
    await chart(page).focus();
    await page.keyboard.press('ArrowRight');
    const next = await page.getByRole('tooltip').getAttribute('data-leaf');
    await page.keyboard.press('Enter');
    await expect.poll(() => leafShown(page)).toBe(next);
    // g hides it, g shows it again.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('g');
    await expect(page.getByRole('region', { name: 'Context over time' })).toHaveCount(0);
    await page.keyboard.press('g');
    await expect(page.getByRole('region', { name: 'Context over time' })).toBeVisible();
  });

  test('apply sets the profile to the bytes per token that fits the measured input', async ({ page, served }) => {
    // The bundled demo's main session: its usage is what a provider reports for its content.
    copyFileSync(join(ROOT, 'resources', 'demo-home', DEMO_MAIN), join(served.home, DEMO_MAIN));
    // At 9 bytes per token the estimate is far from the measured input: the fit says so.
    await served.open(page, sessionHash(DEMO_MAIN, '&v=2&b=9'));
    await expect.poll(async () => Number(await chart(page).getAttribute('aria-valuemax'))).toBeGreaterThan(10);
    const apply = page.getByRole('button', { name: /^apply \d+ bytes\/token$/ });
    await expect(apply).toBeVisible();
    const n = Number(/apply (\d+)/.exec((await apply.textContent()) ?? '')?.[1]);
    expect(n).toBe(4);
    await expect(page.getByText(/measured input fits/)).toBeVisible();
    await apply.click();
    await expect(page.getByLabel('bytes/token', { exact: false }).first()).toHaveValue(String(n));
    await expect.poll(() => page.url()).toMatch(/^(?!.*[&#]b=)/);
    await expect(apply).toHaveCount(0);
  });

  readingTest('the series is asked only after a frame has held the panes', async ({ page, served }) => {
    // In the page, before the app: a frame callback notes when the panes are first in a frame,
    // and the socket notes whether they were when the series left.
    await page.addInitScript(`(() => {
      const T = (window.__seriesTap = { panesFramed: false, seriesAfterFrame: null });
      const panes = () => !!document.querySelector('.leaf-panes[data-leaf-id][aria-busy="false"] .history-item');
      const watch = () => { if (panes()) T.panesFramed = true; else requestAnimationFrame(watch); };
      requestAnimationFrame(watch);
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (data) {
        if (typeof data === 'string' && T.seriesAfterFrame === null && /^\\{"id":\\d+,"method":"getContextSeries"/.test(data))
          T.seriesAfterFrame = T.panesFramed;
        return send.call(this, data);
      };
    })()`);
    await openBig(page, served);
    expect(await page.evaluate('window.__seriesTap.seriesAfterFrame')).toBe(true);
  });

  readingTest('a poor fit is said, and not offered to apply', async ({ page, served }) => {
    // The fixture home's usage does not follow its content (r² far below the threshold).
    await openBig(page, served, '&v=2&b=9');
    await expect(page.getByText(/measured input fits .* a poor fit/)).toBeVisible();
    await expect(page.getByRole('button', { name: /^apply / })).toHaveCount(0);
  });
});

readingTest('cost panel: the session, this chain, abandoned branches and each turn', async ({ page, served }) => {
  await page.setViewportSize({ width: 1500, height: 900 });
  await openBig(page, served);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('$');
  const table = page.getByRole('table', { name: 'Session cost' });
  await expect(table).toBeVisible();
  await expect(table.getByRole('row', { name: /^this chain/ })).toContainText('$');
  await expect(table.getByRole('row', { name: /abandoned branches — real money/ })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Cost per turn' }).getByRole('row')).not.toHaveCount(1);
  await expect(page.getByLabel('Price table')).toContainText('prices.json');
  await screenshot(page, 'cost-1500x900');
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, 'cost-1280x800');
});

readingTest(
  'export: the session as HTML opens offline at a #leaf= link; the projection as JSON and Markdown',
  async ({ page, served, browser }, testInfo) => {
    await openBig(page, served);
    const leaf = await leafShown(page);
    const exportBar = page.getByRole('group', { name: 'Export' });
    const [html] = await Promise.all([
      page.waitForEvent('download'),
      exportBar.getByRole('button', { name: 'HTML' }).click(),
    ]);
    expect(html.suggestedFilename()).toMatch(/\.html$/);
    const file = testInfo.outputPath(html.suggestedFilename());
    await html.saveAs(file);
    await expect(page.getByRole('status')).toContainText(`Saved ${html.suggestedFilename()}`);

    const [json] = await Promise.all([
      page.waitForEvent('download'),
      exportBar.getByRole('button', { name: 'JSON' }).click(),
    ]);
    const jsonFile = testInfo.outputPath(json.suggestedFilename());
    await json.saveAs(jsonFile);
    const projected = JSON.parse(readFileSync(jsonFile, 'utf8')) as {
      leaf: string;
      messages: unknown[];
      tokens: unknown;
    };
    expect(projected.leaf).toBe(leaf);
    expect(projected.messages.length).toBeGreaterThan(0);
    const [md] = await Promise.all([
      page.waitForEvent('download'),
      exportBar.getByRole('button', { name: 'Markdown' }).click(),
    ]);
    const mdFile = testInfo.outputPath(md.suggestedFilename());
    await md.saveAs(mdFile);
    expect(md.suggestedFilename()).toMatch(/\.md$/);
    expect(readFileSync(mdFile, 'utf8')).toContain(leaf ?? '');

    // The HTML file, opened from disk in a fresh page: no request leaves it.
    const offline = await browser.newPage();
    const requests: string[] = [];
    const url = pathToFileURL(file).href;
    offline.on('request', (r) => {
      if (r.url().split('#')[0] !== url) requests.push(r.url());
    });
    const tree = offline.locator('#tree a');
    await offline.goto(url);
    expect(await tree.count()).toBeGreaterThan(100);
    await expect(offline.locator('#history .item').first()).toBeVisible();
    await expect(offline.locator('#projection')).toContainText('Projected context');
    // The leaf that was selected when exporting opens with its projected context, message by message.
    await offline.goto(`${url}#leaf=${encodeURIComponent(leaf ?? '')}`);
    await expect(offline.locator('#tree a.selected')).toHaveAttribute('data-id', leaf ?? '');
    expect(await offline.locator('#projection .item').count()).toBe(projected.messages.length);
    // A deep link opens that leaf: pick an entry early in the tree.
    const early = await tree.nth(20).getAttribute('data-id');
    await offline.goto(`${url}#leaf=${encodeURIComponent(early ?? '')}`);
    await expect(offline.locator('#tree a.selected')).toHaveAttribute('data-id', early ?? '');
    await expect(offline.locator('#history h2')).toContainText(`History of ${early}`);
    await offline.setViewportSize({ width: 1280, height: 800 });
    await offline.screenshot({ path: join('test-results', 'screenshots', 'export-html-1280x800.png') });
    expect(requests).toEqual([]);
    await offline.close();
  },
);

readingTest('copy the whole projected context: the clipboard holds its JSON', async ({ page, served, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openBig(page, served);
  const pane = page.getByRole('region', { name: 'Projected context' });
  await pane.getByRole('button', { name: 'copy the whole projected context (JSON)' }).click();
  await expect(pane.getByRole('button', { name: 'copy the whole projected context (JSON)' })).toHaveText('copied ✓');
  const text = (await page.evaluate('navigator.clipboard.readText()')) as string;
  const p = JSON.parse(text) as { leaf: string; messages: unknown[] };
  expect(p.leaf).toBe(await leafShown(page));
  expect(p.messages.length).toBeGreaterThan(0);
});
