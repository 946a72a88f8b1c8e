import { join } from 'node:path';
import { expect, readLines, screenshot, sessionHash, SMALL, readingTest as test } from './ui-fixture';

test('open a session, walk the tree with the keyboard, see both panes and hover links', async ({ page, served }) => {
  const lines = readLines(join(served.home, SMALL));
  const rootId = lines[0].id;
  const active = lines.at(-1)!;
  await served.open(page);
  await expect(page.getByText('Demo home (bundled)').or(page.locator('.home-label'))).toBeVisible();
  await screenshot(page, 'library');

  // Open by clicking its title in the library.
  const title = page.locator(`.session-item[data-session-key="${SMALL}"]`);
  await title.click();
  const rows = page.locator('.tree-row:not(.placeholder)');
  await expect(rows).toHaveCount(lines.length);
  await expect(page.locator(`.tree-row[data-entry-id="${active.id}"]`)).toContainText('◀ active');

  // Keyboard: Home → root, j → next row, End → active leaf, h → its parent.
  await page.locator('.tree-scroll').focus();
  const cursor = page.locator('.tree-row.cursor');
  await page.keyboard.press('Home');
  await expect(cursor).toHaveAttribute('data-entry-id', rootId);
  await page.keyboard.press('j');
  await expect(cursor).toHaveAttribute('data-entry-id', lines[1].id);
  await page.keyboard.press('ArrowDown');
  await expect(cursor).toHaveAttribute('data-entry-id', lines[2].id);
  await page.keyboard.press('k');
  await expect(cursor).toHaveAttribute('data-entry-id', lines[1].id);
  await page.keyboard.press('End');
  await expect(cursor).toHaveAttribute('data-entry-id', active.id);
  await page.keyboard.press('h');
  await expect(cursor).toHaveAttribute('data-entry-id', active.parent_id!);
  await page.keyboard.press('l');
  await expect(cursor).toHaveAttribute('data-entry-id', active.id);
  // The selection (and the URL) follows the cursor once the keys rest.
  await expect.poll(() => decodeURIComponent(page.url())).toContain(`leaf=${active.id}`);
  await screenshot(page, 'tree');

  // Select a leaf in the middle: the chain and the projected context follow it.
  const mid = lines[6];
  await page.locator(`.tree-row[data-entry-id="${mid.id}"]`).click();
  const history = page.getByRole('region', { name: 'History' });
  const projected = page.getByRole('region', { name: 'Projected context' });
  await expect(history.locator('.history-item').last()).toHaveAttribute('data-entry-id', mid.id);
  await expect(history.locator('.history-item').first()).toHaveAttribute('data-entry-id', rootId);
  await expect(projected.locator('.projected-msg').first()).toBeVisible();
  await expect(projected.locator('.fid-badge', { hasText: 'tail' })).toBeVisible();
  await expect(projected.locator('.totals-bar')).toContainText('used');
  await screenshot(page, 'leaf-panes');

  // Hover the first projected message: its source entries light up in the history and the tree.
  const first = projected.locator('.projected-msg').first();
  const sources = ((await first.locator('.msg-sources').getAttribute('title')) ?? '')
    .replace('source entries: ', '')
    .split(', ');
  expect(sources.length).toBeGreaterThan(0);
  await first.hover();
  for (const id of sources) {
    await expect(history.locator(`.history-item[data-entry-id="${id}"]`)).toHaveClass(/linked/);
    await expect(page.locator(`.tree-row[data-entry-id="${id}"]`)).toHaveClass(/linked/);
  }
  await screenshot(page, 'hover-link');

  // Expand an entry to its readable view; its raw JSON line is one click away.
  const second = history.locator('.history-item').nth(1);
  await second.getByTitle('Show the entry').click();
  await expect(history.locator('.raw-entry')).toContainText('line 2 · offset');
  await second.getByRole('button', { name: 'raw JSON' }).click();
  await expect(second.locator('pre.json')).toContainText('"id"');

  // Panels: warnings, usage (active chain vs all branches), work.
  await page.locator('.tree-scroll').focus();
  await page.keyboard.press('w');
  await page.keyboard.press('u');
  await page.locator('.plan-bar').getByRole('button', { name: /^work/ }).click();
  await expect(page.getByRole('region', { name: 'Warnings' })).toContainText('No warnings');
  await expect(page.getByRole('table', { name: 'Usage' })).toContainText('all branches');
  await expect(page.getByRole('region', { name: 'Work' })).toBeVisible();
  await screenshot(page, 'panels');

  // Dark theme from the system setting.
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'leaf-panes-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // The URL restores the selection on reload.
  await page.reload();
  await expect(page.locator('.tree-row.selected-leaf')).toHaveAttribute('data-entry-id', mid.id);
});

test('the keys overlay lists every key', async ({ page, served }) => {
  await served.open(page, sessionHash(SMALL));
  await expect(page.locator('.tree-row:not(.placeholder)').first()).toBeVisible();
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toContainText('sibling branch');
  await screenshot(page, 'keys');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
