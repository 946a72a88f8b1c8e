import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { BIG, ROOT, SCREENSHOTS, expect, screenshot, sessionHash, readingTest as test } from './ui-fixture';

/** A leaf of the big demo session whose context takes 4,853 tokens: in 3,000 the auto plan needs cards and packets. */
const DEEP_LEAF = '01a1f83e-5ecd-770e-b7ed-10f597c52d7a';

const label = (page: Page, name: string) => page.getByLabel(name, { exact: true });
const table = (page: Page) => page.getByRole('table', { name: 'Per-turn comparison' });
/** Fidelities of the B column (4th cell) of the per-turn table. */
const fidelitiesB = (page: Page) => table(page).locator('tr[data-turn] td:nth-child(4) .fid-badge').allTextContents();

test.describe('compare two budgets', () => {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1500, height: 900 },
  ]) {
    test(`200,000 against 3,000 tokens, a B override, diff stepping, reload (${size.width}×${size.height})`, async ({
      page,
      served,
    }) => {
      await page.setViewportSize(size);
      await served.open(page, sessionHash(BIG, `&leaf=${DEEP_LEAF}`));
      await expect(page.locator('.tree-row:not(.placeholder)').first()).toBeVisible();
      await expect(
        page.getByRole('region', { name: 'Projected context' }).locator('.projected-msg').first(),
      ).toBeVisible();
      await page.keyboard.press('c');
      await expect(table(page)).toBeVisible();

      // Side B: plan auto in a 3,000-token window (reserve first: 16,000 is not below 3,000).
      const sideB = page.getByRole('group', { name: 'Side B' });
      await sideB.getByLabel('Plan B').selectOption('auto');
      await label(page, 'B reserve').fill('500');
      await label(page, 'B window').fill('3000');
      const labels = page.locator('.compare-labels');
      await expect(labels).toContainText('window 200,000');
      await expect(labels).toContainText('window 3,000');
      await expect(labels).toContainText('reserve 16,000');
      await expect(labels).toContainText('reserve 500');
      await expect.poll(async () => (await fidelitiesB(page)).some((f) => f === 'card' || f === 'packet')).toBe(true);
      const differs = table(page).locator('tr.differs');
      expect(await differs.count()).toBeGreaterThan(0);
      await expect(differs.first().locator('.delta')).toHaveText(/^−\d/);
      await expect(table(page).locator('tr.total').first().locator('.delta')).toHaveText(/^−\d/);
      // History keeps its width beside compare.
      const historyBox = await page.getByRole('region', { name: 'History' }).boundingBox();
      expect(historyBox?.width ?? 0).toBeGreaterThanOrEqual(300);
      await screenshot(page, `compare-${size.width}`);

      // Override a turn on side B only.
      await sideB.getByRole('button', { name: /^B overrides/ }).click();
      const bRows = page.getByRole('table', { name: 'B Plan rows' });
      // B's plan rows are read by page once B's view is in: wait for the first one.
      const firstTurn = await bRows.locator('tbody tr[data-turn]').first().getAttribute('data-turn');
      await label(page, `B Override turn ${firstTurn}`).selectOption('full');
      await expect(labels).toContainText('overrides: 1 turn');
      await expect(table(page).locator(`tr[data-turn="${firstTurn}"] td:nth-child(4) .fid-badge`)).toHaveText('full');
      await expect(sideB.getByRole('button', { name: /^B overrides \(1\)/ })).toBeVisible();

      // The text diff: unchanged runs folded, n / N step through the changes.
      await page.getByRole('checkbox', { name: 'text diff' }).check();
      const diff = page.getByLabel('Text diff', { exact: true });
      await expect(diff).toContainText(/\d+ changes?/);
      await expect(diff.locator('.diff-fold').first()).toBeVisible();
      const total = Number(/(\d+) changes?/.exec((await diff.textContent()) ?? '')?.[1]);
      await page
        .locator('body')
        .click({ position: { x: 5, y: 5 } })
        .catch(() => undefined);
      await page.keyboard.press('n');
      await expect(diff).toContainText(`change 1 of ${total}`);
      await expect(diff.locator('.diff-line.current').first()).toBeVisible();
      await page.keyboard.press('Shift+N');
      await expect(diff).toContainText(`change ${total} of ${total}`);
      await page.keyboard.press('F7');
      await expect(diff).toContainText(`change 1 of ${total}`);
      await screenshot(page, `compare-diff-${size.width}`);

      // A reload keeps the whole comparison.
      await page.reload();
      await expect(table(page)).toBeVisible();
      await expect(label(page, 'B window')).toHaveValue('3000');
      await expect(label(page, 'B reserve')).toHaveValue('500');
      await expect(page.getByLabel('Plan B')).toHaveValue('auto');
      await expect(page.getByRole('checkbox', { name: 'text diff' })).toBeChecked();
      await expect(page.locator('.compare-labels')).toContainText('overrides: 1 turn');
      if (size.width === 1500) {
        await page.getByRole('checkbox', { name: 'text diff' }).uncheck();
        await expect(page.getByRole('region', { name: /^B · / })).toBeVisible();
        await screenshot(page, 'compare-readme');
        // `npm run shots` keeps it for docs/user-guide.md; `npm test` leaves tracked files alone.
        if (process.env.VAK_README_SHOTS) {
          mkdirSync(join(ROOT, 'docs', 'images'), { recursive: true });
          copyFileSync(join(SCREENSHOTS, 'compare-readme.png'), join(ROOT, 'docs', 'images', 'compare.png'));
        }
      }
    });
  }

  test('auto against a hand-made plan on the same leaf', async ({ page, served }) => {
    await served.open(page, sessionHash(BIG, `&leaf=${DEEP_LEAF}`));
    await expect(page.locator('.tree-row:not(.placeholder)').first()).toBeVisible();
    await page.keyboard.press('c');
    await expect(table(page)).toBeVisible();
    await page.getByLabel('Plan B').selectOption('auto');
    await page.getByRole('button', { name: /^B overrides/ }).click();
    const rows = page.getByRole('table', { name: 'B Plan rows' }).locator('tbody tr[data-turn]');
    await expect(rows.first()).toBeVisible();
    const turns = await rows.evaluateAll((trs) => trs.slice(0, 3).map((tr) => tr.getAttribute('data-turn') ?? ''));
    for (const t of turns) {
      const sel = label(page, `B Override turn ${t}`);
      const options = await sel.locator('option').evaluateAll((os) => os.map((o) => o.getAttribute('value') ?? ''));
      await sel.selectOption(
        options.includes('card') ? 'card' : (options.find((o) => o.startsWith('packet:')) ?? 'full'),
      );
    }
    await expect(page.locator('.compare-labels')).toContainText(`overrides: ${turns.length} turns`);
    await expect(page.locator('.compare-labels')).toContainText('no overrides');
    // The labels change as the overrides are set; side B's rows follow when its plan is answered.
    await expect(table(page).locator('tr.differs').first()).toBeVisible();
  });
});

test('Back and Forward walk through leaf selections and stay in the app', async ({ page, served }) => {
  await served.open(page, sessionHash(BIG));
  const rows = page.locator('.tree-row:not(.placeholder)');
  await expect(rows.nth(12)).toBeVisible();
  const panes = page.locator('section.leaf-panes');
  await expect(panes).toHaveAttribute('data-leaf-id', /.+/);
  const start = await panes.getAttribute('data-leaf-id');
  const first = (await rows.nth(6).getAttribute('data-entry-id')) ?? '';
  const second = (await rows.nth(12).getAttribute('data-entry-id')) ?? '';
  await rows.nth(6).click();
  await expect(panes).toHaveAttribute('data-leaf-id', first);
  await page.keyboard.press('c'); // not a selection: the entry is rewritten, not added
  await expect(table(page)).toBeVisible();
  await page.locator(`.tree-row[data-entry-id="${second}"]`).click();
  await expect(panes).toHaveAttribute('data-leaf-id', second);

  await page.goBack();
  await expect(panes).toHaveAttribute('data-leaf-id', first);
  await expect(table(page)).toBeVisible();
  await page.goBack();
  await expect(panes).toHaveAttribute('data-leaf-id', start ?? '');
  expect(page.url()).toContain('#');
  await expect(page.getByRole('navigation', { name: 'Library' })).toBeVisible();
  await page.goForward();
  await expect(panes).toHaveAttribute('data-leaf-id', first);
  await page.goForward();
  await expect(panes).toHaveAttribute('data-leaf-id', second);
});

test('a profile whose reserve is not below its window is refused in place, for A and for B', async ({
  page,
  served,
}) => {
  await served.open(page, sessionHash(BIG));
  await expect(page.getByRole('region', { name: 'Projected context' }).locator('.projected-msg').first()).toBeVisible();
  const bar = page.locator('.plan-bar');
  await label(page, 'reserve').fill('250000');
  await expect(bar.getByRole('alert')).toContainText('reserve (250,000) must be below the window (200,000)');
  await expect(label(page, 'reserve')).toHaveAttribute('aria-invalid', 'true');
  expect(page.url()).not.toContain('r=250000');
  await label(page, 'reserve').press('Escape');
  await expect(label(page, 'reserve')).toHaveValue('16000');
  await expect(bar.getByRole('alert')).toHaveCount(0);

  await bar.getByRole('button', { name: /^compare/ }).click();
  const sideB = page.getByRole('group', { name: 'Side B' });
  await label(page, 'B window').fill('16000');
  await expect(sideB.getByRole('alert')).toContainText('reserve (16,000) must be below the window (16,000)');
  await label(page, 'B bytes/token').fill('0');
  await expect(sideB.getByRole('alert')).toBeVisible();
  expect(page.url()).not.toContain('bw=16000');
  await screenshot(page, 'compare-refused');
});

test('a dragged pane handle keeps its width after a reload; the keyboard resizes too', async ({ page, served }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await served.open(page, sessionHash(BIG));
  const history = page.getByRole('region', { name: 'History' });
  await expect(history).toBeVisible();
  const before = (await history.boundingBox())?.width ?? 0;
  const handle = page.getByRole('separator', { name: 'Resize history' });
  const box = await handle.boundingBox();
  if (!box) throw new Error('no history handle');
  await page.mouse.move(box.x + box.width / 2, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + 200, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2 + 100, box.y + 200, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => Math.round((await history.boundingBox())?.width ?? 0)).toBe(Math.round(before + 100));
  await page.reload();
  await expect(history).toBeVisible();
  expect(Math.round((await history.boundingBox())?.width ?? 0)).toBe(Math.round(before + 100));

  const tree = page.getByRole('region', { name: 'Session tree' });
  const treeBefore = (await tree.boundingBox())?.width ?? 0;
  await page.getByRole('separator', { name: 'Resize session tree' }).focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => Math.round((await tree.boundingBox())?.width ?? 0)).toBe(Math.round(treeBefore - 32));
  await screenshot(page, 'panes-resized-1280');
});
