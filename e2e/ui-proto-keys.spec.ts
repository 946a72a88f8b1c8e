/**
 * Ledger strings named like Object.prototype's own (`__proto__`, `constructor`, `toString`,
 * `hasOwnProperty`) are data: ids, leaves, kinds, roles, block types, tool and model names,
 * stop reasons and text. The explorer shows each of them, keeps a selection of such a leaf
 * across a reload (the URL carries it), and its exported HTML page opens at each of them —
 * with no page error anywhere.
 */
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { BUILTIN_NAMES, writeBuiltinNamesSession } from '../src/test-support/builtin-names-ledger';
import { expect, screenshot, sessionHash, test } from './ui-fixture';

/** Page errors and console errors of `page`, as they come. */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}

const history = (page: Page) => page.getByRole('region', { name: 'History' });
const projected = (page: Page) => page.getByRole('region', { name: 'Projected context' });
const row = (page: Page, id: string) => page.locator(`.tree-row[data-entry-id="${id}"]`);

/** The leaf panes show `leaf`: its chain ends there and the projection is drawn. */
async function showsLeaf(page: Page, leaf: string): Promise<void> {
  await expect(row(page, leaf)).toHaveClass(/selected-leaf/);
  await expect(page.locator('.leaf-panes')).toHaveAttribute('data-leaf-id', leaf);
  await expect(page.locator('.leaf-panes[aria-busy="false"]')).toBeVisible();
  await expect(history(page).locator('.history-item').last()).toHaveAttribute('data-entry-id', leaf);
  await expect(projected(page).locator('.projected-msg').first()).toBeVisible();
}

test('names like Object.prototype built-ins: tree, panes, reload, panels and the exported page', async ({
  page,
  served,
  browser,
}, testInfo) => {
  test.setTimeout(360_000);
  const s = writeBuiltinNamesSession(served.home);
  const errors = errorsOf(page);

  await served.open(page, sessionHash(s.key));
  await expect(page.locator('.tree-row:not(.placeholder)')).toHaveCount(s.ids.length);
  // Unknown kinds and roles are labelled as written, never as something a table made of them.
  for (const [id, label] of [
    ['__lookupGetter__', '__proto__'],
    ['__defineSetter__', 'constructor'],
    ['__lookupSetter__', 'toString'],
    ['valueOf.hasOwnProperty', 'hasOwnProperty'],
  ]) {
    await expect(row(page, id).locator('.row-role')).toHaveText(label);
  }
  // A message whose role is none of §4's is shown as a message.
  for (const role of BUILTIN_NAMES) await expect(row(page, `role.${role}`).locator('.row-role')).toHaveText('message');
  await expect(row(page, 'hasOwnProperty')).toContainText('◀ active');
  await screenshot(page, 'proto-keys-tree');

  // Select each leaf, then reload with the selection in the URL: the same leaf comes back.
  for (const leaf of BUILTIN_NAMES) {
    await row(page, leaf).click();
    await showsLeaf(page, leaf);
    await expect.poll(() => new URLSearchParams(new URL(page.url()).hash.slice(1)).get('leaf')).toBe(leaf);
    await page.reload();
    await showsLeaf(page, leaf);
  }
  // A link straight to a leaf (a fresh page load) opens it too.
  await page.goto(`${served.url}#${sessionHash(s.key, `&leaf=${encodeURIComponent('__proto__')}`)}`);
  await showsLeaf(page, '__proto__');

  // Every entry's readable view opens (the History pane of the active leaf holds the shared chain).
  await row(page, 'hasOwnProperty').click();
  await showsLeaf(page, 'hasOwnProperty');
  const scroller = history(page).locator('.pane-scroll');
  await scroller.evaluate((el) => el.scrollTo(0, 0));
  for (const id of [...s.ids.slice(0, -BUILTIN_NAMES.length), 'hasOwnProperty']) {
    const item = history(page).locator(`.history-item[data-entry-id="${id}"]`);
    // The list draws what is in view: scroll on until the item is drawn, then open it.
    await expect(async () => {
      if ((await item.count()) === 0) {
        await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight / 2));
        throw new Error(`${id} is not drawn yet`);
      }
      await item.scrollIntoViewIfNeeded();
      const expand = item.locator('button.expand');
      if ((await expand.getAttribute('aria-expanded')) !== 'true') await expand.click();
      await expect(item.locator('.raw-entry').first()).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 30_000 });
    // Closed again, so the list keeps its layout for the next one.
    await item.locator('button.expand').click();
    await expect(item.locator('.raw-entry')).toHaveCount(0);
  }
  await screenshot(page, 'proto-keys-entries');

  // The kind chips filter by kinds named like built-ins.
  const chips = history(page).getByRole('group', { name: 'Filter by kind' }).getByRole('button');
  await expect(chips.filter({ hasText: /^__proto__/ })).toHaveCount(1);
  await expect(chips.filter({ hasText: /^constructor/ })).toHaveCount(1);

  // Panels read the same data: warnings (five unknown kinds), usage (models named like built-ins), work, plan, cost.
  await page.locator('.tree-scroll').focus();
  await page.keyboard.press('w');
  await expect(page.getByRole('region', { name: 'Warnings' })).toContainText('unknown kind __proto__');
  await page.keyboard.press('u');
  await expect(page.getByRole('table', { name: 'Usage' })).toBeVisible();
  await page.locator('.plan-bar').getByRole('button', { name: /^work/ }).click();
  await expect(page.getByRole('region', { name: 'Work' })).toContainText('constructor');
  await screenshot(page, 'proto-keys-panels');

  // The exported page, opened from disk, at each leaf and by clicks in its tree.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('group', { name: 'Export' }).getByRole('button', { name: 'HTML' }).click(),
  ]);
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  const offline = await browser.newPage();
  const offlineErrors = errorsOf(offline);
  const url = pathToFileURL(file).href;
  await offline.goto(url);
  await expect(offline.locator('#tree a')).toHaveCount(s.ids.length);
  for (const leaf of BUILTIN_NAMES) {
    await offline.goto(`${url}#leaf=${encodeURIComponent(leaf)}`);
    await expect(offline.locator('#tree a.selected')).toHaveAttribute('data-id', leaf);
    await expect(offline.locator('#history h2')).toHaveText(`History of ${leaf} (32 entries)`);
    await expect(offline.locator('#projection .item').first()).toBeVisible();
  }
  for (const id of [...BUILTIN_NAMES, '__lookupGetter__', 'role.constructor', 'valueOf']) {
    await offline.locator(`#tree a[data-id="${id}"]`).click();
    await expect(offline.locator('#tree a.selected')).toHaveAttribute('data-id', id);
    await expect(offline.locator('#history .item').last()).toContainText(`· ${id}`);
    await expect(offline.locator('#history .item pre').last()).toContainText(`"id": "${id}"`);
  }
  await offline.screenshot({ path: testInfo.outputPath('proto-keys-export.png') });
  await offline.close();

  expect(offlineErrors).toEqual([]);
  expect(errors).toEqual([]);
});
