/** The History pane as the UI specs drive it: its region, its kind chips, a row expanded. */
import type { Page } from '@playwright/test';
import { expect } from './ui-fixture';

export const history = (page: Page) => page.getByRole('region', { name: 'History' });

/** Leaves only `kinds` pressed among the History pane's kind chips. */
export async function onlyKinds(page: Page, kinds: string[]): Promise<void> {
  const chips = history(page).getByRole('group', { name: 'Filter by kind' }).getByRole('button');
  await expect(chips.first()).toBeVisible();
  for (let i = 0; i < (await chips.count()); i++) {
    const chip = chips.nth(i);
    const kind = ((await chip.textContent()) ?? '').split(' ')[0];
    const pressed = (await chip.getAttribute('aria-pressed')) === 'true';
    if (pressed !== kinds.includes(kind)) await chip.click();
  }
  await expect(history(page).locator('.history-item').first()).toBeVisible();
  // The filtered list replaces the old one: wait until every row drawn is of the kinds asked for.
  await expect
    .poll(() =>
      history(page)
        .locator('.history-item')
        .evaluateAll((rows, ks) => rows.every((r) => ks.some((k) => r.classList.contains(`kind-${k}`))), kinds),
    )
    .toBe(true);
}

/** Expands the first History row of `kind`; returns the row (by id: expanding re-lays the list out). */
export async function expandFirst(page: Page, kind: string) {
  const id = await history(page).locator(`.history-item.kind-${kind}`).first().getAttribute('data-entry-id');
  const row = history(page).locator(`.history-item[data-entry-id="${id}"]`);
  // The list may still settle (rows measured, pages arriving): bring the row back into view and retry.
  await expect(async () => {
    await row.scrollIntoViewIfNeeded();
    const expand = row.locator('button.expand');
    if ((await expand.getAttribute('aria-expanded')) !== 'true') await expand.click();
    await expect(row.locator('.raw-entry .ev').first()).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  return row;
}
