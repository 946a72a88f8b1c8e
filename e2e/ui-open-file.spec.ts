/**
 * A ledger from outside the home, given with `serve --file`: listed under "Opened files" with its
 * path, opened, following an append, branched; and in a browser, File → Open… and a drop say that
 * they need the desktop app (or `serve --file`).
 */
import { test as base, type Page } from '@playwright/test';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServe, stopServe } from '../src/test-support/serve-process';
import { appendFromOtherProcess, expect, readLines, screenshot, SMALL, verify } from './ui-fixture';

const FIXTURE_HOME = fileURLToPath(new URL('../../shared/fixtures/demo-home', import.meta.url));

interface OpenedServe {
  /** The ledger given with --file (outside the home). */
  file: string;
  open(page: Page, hash?: string): Promise<void>;
}

const test = base.extend<{ served: OpenedServe }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; it has none
  served: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'vak-ui-open-'));
    const home = join(dir, 'home');
    cpSync(FIXTURE_HOME, home, { recursive: true });
    // A colleague's session, sent as a file: somewhere else, under another name.
    mkdirSync(join(dir, 'from-colleague'));
    const file = join(dir, 'from-colleague', 'their session.jsonl');
    cpSync(join(home, SMALL), file);
    const env = { ...process.env, XDG_DATA_HOME: join(dir, 'data') };
    const { child, url } = await startServe(home, 30_000, env, ['--file', file]);
    await use({
      file,
      open: async (page, hash) => {
        await page.goto(hash ? `${url}#${hash}` : url);
        await expect(page.getByRole('navigation', { name: 'Library' })).toBeVisible();
      },
    });
    await stopServe(child);
    rmSync(dir, { recursive: true, force: true });
  },
});

test('a --file ledger is listed under Opened files with its path, opens, follows an append and branches', async ({
  page,
  served,
}) => {
  const lines = readLines(served.file);
  await served.open(page);
  const opened = page.getByRole('list', { name: 'Opened files' });
  await expect(opened).toBeVisible();
  await expect(opened.locator('.opened-path')).toHaveText(served.file);
  const item = opened.locator('.session-item');
  await expect(item).toHaveAttribute('data-session-key', 'opened/0.jsonl');
  // The same session in the home stays where it is: the opened file is a session of its own.
  await expect(page.locator(`.session-item[data-session-key="${SMALL}"]`)).toHaveCount(1);

  await item.click();
  await expect(page).toHaveURL(/#.*s=opened%2F0\.jsonl/);
  await expect(page.locator('.tree-row:not(.placeholder)')).toHaveCount(lines.length);
  await screenshot(page, 'open-file');

  // It follows appends like any other session.
  appendFromOtherProcess(served.file, { id: 'e2e-open-0001', parent_id: lines.at(-1)!.id, text: 'Sent on later.' });
  await expect(page.locator('.tree-row[data-entry-id="e2e-open-0001"]')).toBeVisible();

  // A branch writes one hash-linked line to that file, under the entry chosen.
  const target = lines[4];
  await page.locator(`.tree-row[data-entry-id="${target.id}"]`).click();
  await expect(page.locator('.tree-row.selected-leaf')).toHaveAttribute('data-entry-id', target.id);
  await page.keyboard.press('b');
  const box = page.getByRole('textbox', { name: /New directive under/ });
  await expect(box).toBeFocused();
  await box.fill('Branch in the colleague file.');
  await box.press('Enter');
  await expect(page.locator('.tree-row', { hasText: 'Branch in the colleague file.' })).toContainText('◀ active');
  const after = readLines(served.file);
  expect(after).toHaveLength(lines.length + 2);
  expect(after.at(-1)!.parent_id).toBe(target.id);
  expect(verify(served.file).warnings).toEqual([]);

  // A link to it opens it again.
  await page.reload();
  await expect(page.locator('.tree-row', { hasText: 'Branch in the colleague file.' })).toBeVisible();
});

test('in a browser, Open file… and a drop say they need the desktop app or serve --file', async ({ page, served }) => {
  await served.open(page);
  await expect(page.getByRole('list', { name: 'Opened files' })).toBeVisible();

  // The palette lists the action, and `?` shows its keys.
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await palette.getByRole('combobox').fill('open file');
  await expect(palette.getByText('Open file…')).toBeVisible();
  await palette.getByRole('combobox').press('Enter');
  const notice = page.getByRole('alert').filter({ hasText: 'needs the desktop app' });
  await expect(notice).toContainText('vak-explorer serve --file PATH');
  await notice.getByRole('button', { name: 'dismiss' }).click();
  await expect(notice).toHaveCount(0);

  // A file dropped on the window: a browser gives no path, so nothing is opened and the notice says why.
  // (A string: the page's own DOM types, which this file's Node tsconfig does not know.)
  await page.evaluate(`(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['{}\\n'], 'dropped.jsonl'));
    window.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, cancelable: true }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, cancelable: true }));
  })()`);
  await expect(notice).toBeVisible();
  await expect(page.getByRole('list', { name: 'Opened files' }).locator('.session-item')).toHaveCount(1);
  await screenshot(page, 'open-file-browser-notice');

  await page.keyboard.press('Escape');
  await page.keyboard.press('?');
  const keys = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(keys).toContainText('Open file…');
});
