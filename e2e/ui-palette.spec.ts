import { expect, screenshot, readingTest as test } from './ui-fixture';

const FACTURE = 'agents/vak/sessions/3f7fe33c03d36fc4/01a212d8-6020-771d-86dd-af00b0056a14.jsonl';
const PYTEST_WORK = '01a212e5-888b-7ea9-b19e-60af2a2b174a';

test('Ctrl+K palette: every action with its key, fuzzy, sessions by title, entries by id; focus returns', async ({
  page,
  served,
}) => {
  await served.open(page);
  await expect(page.getByRole('navigation', { name: 'Library' }).getByText(/Run the full test suite/)).toBeVisible();

  // The keys overlay lists the registry's keyed actions…
  await page.keyboard.press('?');
  const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(overlay).toBeVisible();
  const overlayIds = await overlay
    .locator('[data-action-id]')
    .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-action-id')} ${e.querySelector('kbd')?.textContent}`));
  await screenshot(page, 'keys-overlay');
  await page.keyboard.press('Escape');
  await expect(overlay).toHaveCount(0);

  // …and the palette lists the same ones with the same keys (plus those without a key).
  const filter = page.getByLabel('Filter sessions');
  await filter.focus();
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  const input = palette.getByRole('combobox');
  await expect(input).toBeFocused();
  const keyed = await palette
    .locator('[data-palette-id^="action:"]')
    .evaluateAll((els) =>
      els
        .filter((e) => e.querySelector('kbd'))
        .map((e) => `${e.getAttribute('data-palette-id')?.slice(7)} ${e.querySelector('kbd')?.textContent}`),
    );
  expect(keyed).toEqual(overlayIds);
  expect(keyed.length).toBeGreaterThan(20);
  await expect(palette.locator('[data-palette-id="action:search.home"] kbd')).toHaveText('Ctrl+Shift+F');

  // Esc closes it; the focus is back in the filter.
  await page.keyboard.press('Escape');
  await expect(palette).toHaveCount(0);
  await expect(filter).toBeFocused();

  // Fuzzy: "apply disc" finds the session by its title; Enter opens it.
  await page.keyboard.press('Control+K');
  await input.fill('apply disc');
  await expect(palette.locator('[role=option]').first()).toContainText('Open session: Why is `apply_discount`');
  for (const [w, h] of [
    [1280, 800],
    [1500, 900],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await screenshot(page, `palette-${w}x${h}`);
  }
  await page.keyboard.press('Enter');
  await expect(palette).toHaveCount(0);
  expect(decodeURIComponent(page.url())).toContain(`s=${FACTURE}`);
  await expect(page.locator('.tree-row').first()).toBeVisible();

  // Go to an entry by the tail of its id.
  await page.keyboard.press('Control+K');
  await input.fill(PYTEST_WORK.slice(-8));
  await expect(palette.locator('[role=option]').first()).toHaveText(new RegExp(`^Go to entry ${PYTEST_WORK}`));
  await page.keyboard.press('Enter');
  await expect(page.locator('.tree-row.cursor')).toHaveAttribute('data-entry-id', PYTEST_WORK);
  await expect(page.locator(`.tree-row[data-entry-id="${PYTEST_WORK}"]`)).toBeInViewport();

  // An action with a prompt: the window, refused in place, then set.
  await page.keyboard.press('Control+K');
  await input.fill('set window');
  await expect(palette.locator('[role=option]').first()).toContainText('Set profile: context window…');
  await page.keyboard.press('Enter');
  await expect(input).toHaveValue('200000');
  await input.fill('12');
  await page.keyboard.press('Enter');
  await expect(palette.getByRole('alert')).toContainText('must be below the window');
  await input.fill('120000');
  await page.keyboard.press('Enter');
  await expect(palette).toHaveCount(0);
  expect(decodeURIComponent(page.url())).toMatch(/[#&]w=120000/);

  // A plain action by fuzzy text, with its key shown: fold audit runs.
  await page.keyboard.press('Control+K');
  await input.fill('fold');
  const fold = palette.locator('[role=option]').first();
  await expect(fold).toContainText('Fold audit runs');
  await expect(fold.locator('kbd')).toHaveText('a');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('checkbox', { name: /fold audit/ })).toBeChecked();
});
