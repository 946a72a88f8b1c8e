import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, screenshot, readingTest as test } from './ui-fixture';

/** The demo session whose work entry says "pytest -q" (an audit payload). */
const FACTURE = 'agents/vak/sessions/3f7fe33c03d36fc4/01a212d8-6020-771d-86dd-af00b0056a14.jsonl';
const PYTEST_WORK = '01a212e5-888b-7ea9-b19e-60af2a2b174a';

test('search every session, open a hit as the selected leaf, search within it, Esc back to the library', async ({
  page,
  served,
}) => {
  await served.open(page);
  const library = page.getByRole('navigation', { name: 'Library' });
  await expect(library.getByText(/Run the full test suite/)).toBeVisible();
  const ledgerBefore = readFileSync(join(served.home, FACTURE));

  // Ctrl+Shift+F: search takes the library's place, focus in its field.
  await page.keyboard.press('Control+Shift+F');
  const search = page.getByRole('navigation', { name: 'Search' });
  await expect(search).toBeVisible();
  await expect(library).toHaveCount(0);
  const field = search.getByRole('searchbox');
  await expect(field).toBeFocused();
  await expect(search.getByText(/Type to search every session/)).toBeVisible();

  // A tool result: cargo's output in two sessions, grouped under their titles.
  await field.fill('running 23 tests');
  await expect(search.locator('.search-status')).toHaveText('2 hits in 2 sessions (7 files searched)');
  await expect(search.locator('.search-session')).toHaveCount(2);
  await expect(search.locator('.search-hit mark').first()).toHaveText('running 23 tests');

  // An audit payload, the kind filter narrowing to audit entries.
  await field.fill('pytest -q');
  await expect(search.locator('.search-status')).toHaveText(/^\d+ hits in 1 session/);
  await search.getByLabel('Kind').selectOption('audit');
  await expect(search.locator('.search-status')).toHaveText('2 hits in 1 session (7 files searched)');
  const hits = search.locator('.search-hit');
  await expect(hits).toHaveCount(2);
  await expect(hits.nth(1)).toHaveAttribute('data-entry-id', PYTEST_WORK);
  await expect(hits.nth(1).locator('.search-field')).toHaveText('work.detail');

  // ↓ Enter: the session opens with that entry as the selected leaf; the tree scrolled to it.
  await field.focus();
  await page.keyboard.press('ArrowDown');
  await expect(hits.nth(1)).toHaveClass(/active/);
  await page.keyboard.press('Enter');
  const row = page.locator(`.tree-row[data-entry-id="${PYTEST_WORK}"]`);
  await expect(row).toBeInViewport();
  await expect(page.locator('.tree-row.cursor')).toHaveAttribute('data-entry-id', PYTEST_WORK);
  await expect(page.getByRole('region', { name: 'History' }).locator('.history-item').last()).toHaveAttribute(
    'data-entry-id',
    PYTEST_WORK,
  );
  expect(decodeURIComponent(page.url())).toContain(`leaf=${PYTEST_WORK}`);

  for (const [w, h] of [
    [1280, 800],
    [1500, 900],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await screenshot(page, `search-home-${w}x${h}`);
  }

  // Ctrl+F: within the open session only.
  await search.getByLabel('Kind').selectOption('');
  await page.keyboard.press('Control+F');
  await expect(search.getByRole('button', { name: 'this session' })).toHaveAttribute('aria-pressed', 'true');
  await field.fill('allowed by user');
  await expect(search.locator('.search-status')).toHaveText('1 hit in 1 session (1 file searched)');
  await expect(search.locator('.search-session')).toHaveAttribute('title', FACTURE);

  // A long list pages in as it scrolls: "the" over the home.
  await search.getByRole('button', { name: 'all sessions' }).click();
  await field.fill('the');
  await expect(search.locator('.search-status')).toHaveText(/so far/);
  const count = async () =>
    Number(/^(\d+) hits/.exec((await search.locator('.search-status').textContent()) ?? '')?.[1]);
  const first = await count();
  await search.locator('.search-scroll').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect.poll(count).toBeGreaterThan(first);

  // Esc: back to the library, the session still open at the hit; the ledger untouched.
  await field.focus();
  await page.keyboard.press('Escape');
  await expect(library).toBeVisible();
  await expect(search).toHaveCount(0);
  await expect(page.locator('.tree-row.cursor')).toHaveAttribute('data-entry-id', PYTEST_WORK);
  expect(readFileSync(join(served.home, FACTURE)).equals(ledgerBefore)).toBe(true);
});
