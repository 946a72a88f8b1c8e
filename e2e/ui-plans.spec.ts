import { BIG, expect, screenshot, sessionHash, readingTest as test } from './ui-fixture';

test('compare plan auto with plan none on a tight window, then override a turn', async ({ page, served }) => {
  // A window this small makes the auto plan use packets and cards.
  await served.open(page, sessionHash(BIG, '&w=1200&r=0'));
  await expect(page.locator('.tree-row:not(.placeholder)').first()).toBeVisible();
  const projected = page.getByRole('region', { name: 'Projected context' });
  await expect(projected.locator('.projected-msg').first()).toBeVisible();

  await page.keyboard.press('c');
  const table = page.getByRole('table', { name: 'Per-turn comparison' });
  await expect(table).toBeVisible();
  await expect(table.locator('tbody tr').nth(2)).toBeVisible();
  const differs = table.locator('tr.differs');
  expect(await differs.count()).toBeGreaterThan(0);
  await expect(differs.first().locator('.delta')).toHaveText(/^[+−]\d/);
  await expect(page.getByRole('region', { name: 'A · plan auto' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'B · plan none' })).toBeVisible();
  await screenshot(page, 'compare');

  await page.getByRole('checkbox', { name: 'text diff' }).check();
  const diff = page.getByLabel('Text diff', { exact: true });
  await expect(diff).toContainText('lines (A → B)');
  await expect(diff.locator('.diff-line.diff-add').first()).toBeVisible();
  await screenshot(page, 'compare-diff');
  await page.keyboard.press('c');

  // Turns panel: force the first closed turn to Full and see the request take it.
  await page
    .locator('.plan-bar')
    .getByRole('button', { name: /^turns/ })
    .click();
  const select = page.getByRole('table', { name: 'Plan rows' }).locator('select').first();
  await select.selectOption('full');
  await expect(page.locator('.strip-seg.overridden')).toHaveCount(1);
  await expect(
    page.getByRole('table', { name: 'Plan rows' }).locator('tbody tr').first().locator('.fid-badge'),
  ).toHaveText('full');
  await screenshot(page, 'plan-panel');

  // Invalid profile input is refused in place.
  const w = page.getByLabel('window');
  await w.fill('12k');
  await expect(w).toHaveAttribute('aria-invalid', 'true');
});
