/**
 * Go to an entry from the palette with no session open: the whole home is looked through,
 * the files searched of the total shown while it runs, and the entry's session opens with
 * the cursor on that entry. A whole id is answered before any scan; the tail of one is
 * scanned for, page after page, in the session scanned last.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from '@playwright/test';
import { generateSession } from '../src/generator';
import { cwdHash } from '../src/main/core/fnv1a64';
import { sessionKey } from '../src/shared/session-key';
import { expect, readLines, screenshot, test } from './ui-fixture';

/** Three sessions of 30 MB, older than the demo's: more than one page of the backend's scan (64 MiB). */
function bigHome(home: string): { key: string; file: string }[] {
  const out = [];
  for (let k = 0; k < 3; k++) {
    const cwd = `/home/ana/projects/goto-${k}`;
    const g = generateSession({ seed: 300 + k, bytes: 30_000_000, cwd, startMs: Date.UTC(2026, 9, 1 + k) });
    const key = sessionKey('vak', cwdHash(cwd), g.sessionId);
    const file = join(home, key);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, g.bytes);
    // The first one is the oldest: the scan, newest first, reads it last.
    const t = new Date(Date.UTC(2026, 9, 2 + k));
    utimesSync(file, t, t);
    out.push({ key, file });
  }
  return out;
}

/** Every text the palette's status line showed, as it changed (no polling: a mutation observer). */
async function recordStatus(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(`(() => {
    window.seenStatus = [];
    new MutationObserver(() => {
      const t = document.querySelector('.palette-status')?.textContent;
      if (t && window.seenStatus[window.seenStatus.length - 1] !== t) window.seenStatus.push(t);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);
  return async () => (await page.evaluate('window.seenStatus')) as string[];
}

test('go to an entry with no session open: the whole home, with progress, opens at the entry', async ({
  page,
  served,
}) => {
  test.setTimeout(240_000);
  const files = bigHome(served.home);
  const lines = readLines(files[0].file);
  const target = lines[Math.floor(lines.length * 0.8)].id;

  await served.open(page);
  const seen = await recordStatus(page);
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  // The tail of an id, as a list shows it: scanned for through every session.
  await palette.getByRole('combobox').fill(target.slice(-12));
  const option = palette.getByRole('option', { name: new RegExp(`Go to entry ${target}`) });
  await expect(option).toBeVisible({ timeout: 120_000 });
  const statuses = await seen();
  expect(statuses.some((t) => /looking for the entry · \d+ of \d+ files searched/.test(t))).toBe(true);
  await screenshot(page, 'goto-home-found');
  await page.keyboard.press('Enter');
  await expect(page.locator('.tree-row.cursor')).toHaveAttribute('data-entry-id', target, { timeout: 60_000 });
  await expect(page.locator(`.tree-row[data-entry-id="${target}"]`)).toBeInViewport();
  expect(decodeURIComponent(page.url())).toContain(`leaf=${target}`);
});

test('a whole entry id is found at once; an id in no file says so after searching every file', async ({
  page,
  served,
}) => {
  test.setTimeout(240_000);
  const files = bigHome(served.home);
  const lines = readLines(files[1].file);
  const target = lines[Math.floor(lines.length / 2)].id;

  await served.open(page);
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  const field = palette.getByRole('combobox');
  await field.fill(target);
  const option = palette.getByRole('option', { name: new RegExp(`Go to entry ${target}`) });
  await expect(option).toBeVisible({ timeout: 60_000 });
  await field.fill('zzzz-no-such-id');
  await expect(palette.getByRole('status')).toHaveText(/No entry with this id in \d+ files\./, { timeout: 120_000 });
  await field.fill(target);
  await expect(option).toBeVisible({ timeout: 60_000 });
  await page.keyboard.press('Enter');
  await expect(page.locator('.tree-row.cursor')).toHaveAttribute('data-entry-id', target, { timeout: 60_000 });
});
