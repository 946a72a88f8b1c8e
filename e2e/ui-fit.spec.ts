import { BIG, expect, screenshot, sessionHash, readingTest as test } from './ui-fixture';

/** Whether the bottom bar wrapped (a child lies wholly below another) and how far it overflows sideways. */
const barFit = (page: import('@playwright/test').Page) =>
  page.locator('.plan-bar').evaluate((bar) => {
    const boxes = [...bar.children].map((c) => c.getBoundingClientRect());
    const wrapped = boxes.some((a) => boxes.some((b) => a.top >= b.bottom - 1));
    return { wrapped, overflow: bar.scrollWidth - bar.clientWidth };
  });

for (const [width, height] of [
  [1280, 800],
  [1500, 900],
] as const) {
  test(`the bottom bar is one row and History rows fit their pane (${width}×${height})`, async ({ page, served }) => {
    await page.setViewportSize({ width, height });
    await served.open(page, sessionHash(BIG));
    await expect(page.locator('.tree-row.selected-leaf')).toBeVisible();
    const history = page.getByRole('region', { name: 'History' });
    await expect(history.locator('.history-item').first()).toBeVisible();
    for (const compare of [false, true]) {
      if (compare) {
        await page
          .locator('.plan-bar')
          .getByRole('button', { name: /^compare/ })
          .click();
        await expect(page.getByRole('region', { name: 'Compare' }).first()).toBeVisible();
      }
      expect(await barFit(page)).toEqual({ wrapped: false, overflow: 0 });
      // No History row is wider than its pane (the time was clipped mid-word at the right edge).
      const over = await history
        .locator('.history-line')
        .evaluateAll((lines) => lines.filter((l) => l.scrollWidth > l.clientWidth + 1).map((l) => l.textContent));
      expect(over).toEqual([]);
    }
    await screenshot(page, `fit-${width}`);
    // A refused profile says why in place, on a second row, and nothing is scrolled out of sight.
    const reserve = page.locator('.plan-bar').getByLabel('reserve', { exact: true });
    await reserve.fill('300000');
    await expect(page.locator('.plan-bar [role="alert"]')).toBeVisible();
    expect((await barFit(page)).overflow).toBe(0);
  });
}
