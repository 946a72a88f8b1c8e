import { join } from 'node:path';
import { appendFromOtherProcess, expect, readLines, screenshot, sessionHash, SMALL, test, verify } from './ui-fixture';

test('branch from a clicked entry: one new line, hash-linked, parent = the entry', async ({ page, served }) => {
  const file = join(served.home, SMALL);
  const before = verify(file);
  const lines = readLines(file);
  const target = lines[4];
  await served.open(page, sessionHash(SMALL));
  await page.locator(`.tree-row[data-entry-id="${target.id}"]`).click();
  await expect(page.locator('.tree-row.selected-leaf')).toHaveAttribute('data-entry-id', target.id);
  await page.keyboard.press('b');
  const box = page.getByRole('textbox', { name: /New directive under/ });
  await expect(box).toBeFocused();
  await box.fill('Try the other approach from here.');
  await screenshot(page, 'branch-composer');
  await box.press('Enter');

  const row = page.locator('.tree-row', { hasText: 'Try the other approach from here.' });
  await expect(row).toHaveClass(/cursor/);
  await expect(row).toContainText('◀ active');
  await expect(page.getByRole('region', { name: 'Projected context' })).toContainText(
    'Try the other approach from here.',
  );
  await screenshot(page, 'branch');

  const after = verify(file);
  expect(after.warnings).toEqual(before.warnings);
  expect(after.entries).toBe(before.entries + 1);
  const newLines = readLines(file);
  expect(newLines).toHaveLength(lines.length + 1);
  const added = newLines.at(-1)!;
  expect(added.parent_id).toBe(target.id);
  expect(after.active_leaf).toBe(added.id);
  await expect(row).toHaveAttribute('data-entry-id', added.id);
});

test('an append by another process streams in; follow selects it', async ({ page, served }) => {
  const file = join(served.home, SMALL);
  const lines = readLines(file);
  const active = lines.at(-1)!;
  await served.open(page, sessionHash(SMALL));
  await expect(page.locator('.tree-row:not(.placeholder)')).toHaveCount(lines.length);
  await page.keyboard.press('f');
  await expect(page.locator('.plan-bar').getByRole('button', { name: /follow/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  appendFromOtherProcess(file, {
    id: 'e2e-live-0001',
    parent_id: active.id,
    text: 'Streaming in from another process.',
  });
  const row = page.locator('.tree-row[data-entry-id="e2e-live-0001"]');
  await expect(row).toBeVisible();
  await expect(row).toHaveClass(/cursor/);
  await expect(row).toContainText('◀ active');
  await expect(page.getByRole('region', { name: 'Projected context' })).toContainText(
    'Streaming in from another process.',
  );
  expect(verify(file).warnings).toEqual([]);
  await screenshot(page, 'live');
});
