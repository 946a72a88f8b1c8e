/**
 * The screenshots in the README and docs/user-guide.md, taken by `npm run shots` (not by `npm test`,
 * which leaves tracked files alone): each drives the UI to a state worth showing and checks it got
 * there before the shot.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expandFirst, history, onlyKinds } from './history-helpers';
import { BIG, expect, ROOT, SCREENSHOTS, screenshot, sessionHash, test } from './ui-fixture';

declare const localStorage: { setItem(key: string, value: string): void };
declare function requestAnimationFrame(callback: () => void): number;

/** The demo session whose work entry says "pytest -q". */
const FACTURE = 'agents/vak/sessions/3f7fe33c03d36fc4/01a212d8-6020-771d-86dd-af00b0056a14.jsonl';

test('README shot: entry views at 1280×800 and 1500×900', async ({ page, served }) => {
  for (const [w, h] of [
    [1280, 800],
    [1500, 900],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    // As a reader who dragged History wider (the widths are remembered) and hid the chart.
    await page.addInitScript(
      ([tree, hist]) =>
        localStorage.setItem('vak-explorer.pane-widths.v1', JSON.stringify({ sidebar: 220, tree, history: hist })),
      [w === 1280 ? 260 : 300, w === 1280 ? 480 : 560],
    );
    await served.open(page, sessionHash(BIG));
    await page.reload();
    const hideChart = page.getByRole('button', { name: /Hide the context chart/ });
    if (await hideChart.isVisible()) await hideChart.click();
    await onlyKinds(page, ['turn_card', 'receipt', 'goal']);
    await history(page)
      .locator('.pane-scroll')
      .evaluate((el) => el.scrollTo(0, 0));
    await expandFirst(page, 'goal');
    await expandFirst(page, 'turn_card');
    await screenshot(page, `entry-views-${w}`);
    if (w === 1500) {
      mkdirSync(join(ROOT, 'docs/images'), { recursive: true });
      copyFileSync(
        join(ROOT, 'test-results/screenshots/entry-views-1500.png'),
        join(ROOT, 'docs/images/entry-views.png'),
      );
    }
  }
});

test('palette screenshot for the README', async ({ page, served }) => {
  await page.setViewportSize({ width: 1500, height: 900 });
  await served.open(page, `s=${encodeURIComponent(FACTURE)}`);
  await expect(page.locator('.tree-row').first()).toBeVisible();
  await page.keyboard.press('Control+K');
  await page.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox').fill('co');
  await screenshot(page, 'palette');
  mkdirSync(join(ROOT, 'docs', 'images'), { recursive: true });
  copyFileSync(join(SCREENSHOTS, 'palette.png'), join(ROOT, 'docs', 'images', 'palette.png'));
});

test('search screenshot for the README', async ({ page, served }) => {
  await page.setViewportSize({ width: 1500, height: 900 });
  await served.open(page);
  await expect(page.getByRole('navigation', { name: 'Library' }).getByText(/Run the full test suite/)).toBeVisible();
  await page.keyboard.press('Control+Shift+F');
  const search = page.getByRole('navigation', { name: 'Search' });
  await search.getByRole('searchbox').fill('cargo test');
  await expect(search.locator('.search-status')).toHaveText(/hits in 4 sessions/);
  await search.getByRole('searchbox').press('ArrowDown');
  await search.getByRole('searchbox').press('ArrowDown');
  await search.getByRole('searchbox').press('Enter');
  await expect(page.locator('.tree-row.cursor')).toBeInViewport();
  await expect(page.getByRole('region', { name: 'Projected context' }).locator('.projected-msg').first()).toBeVisible();
  await screenshot(page, 'search');
  mkdirSync(join(ROOT, 'docs', 'images'), { recursive: true });
  copyFileSync(join(SCREENSHOTS, 'search.png'), join(ROOT, 'docs', 'images', 'search.png'));
});

test('leaf panes at 1500×900 (README shot)', async ({ page, served }) => {
  await served.open(page, sessionHash(BIG));
  await expect(page.locator('.leaf-panes[data-leaf-id]')).toHaveAttribute('aria-busy', 'false');
  const history = page.getByRole('region', { name: 'History' });
  const link = history.locator('.projected-as button').last();
  await expect(link).toBeVisible();
  await link.click();
  // The click scrolls the projected pane: let it paint before the shot.
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
  await screenshot(page, 'leaf-panes-1500');
});
