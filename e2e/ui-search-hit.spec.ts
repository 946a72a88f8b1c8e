/**
 * Enter on a search hit in a session that is not open yet: the session opens with the hit's
 * entry as the selected leaf, the cursor on its row and the row in view — also when the
 * session is big enough to be read in steps and the entry is in its last step (its row does
 * not exist when the session opens).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateSession } from '../src/generator';
import { cwdHash } from '../src/main/core/fnv1a64';
import { sessionKey } from '../src/shared/session-key';
import { appendFromOtherProcess, expect, readLines, screenshot, test } from './ui-fixture';

test('Enter on a hit in an unopened session read in steps puts the cursor on that entry, in view', async ({
  page,
  served,
}) => {
  // Bigger than a first read (4 MiB) twice over: opened in steps; the hit is on its last line.
  const cwd = '/home/ana/projects/search-hit';
  const g = generateSession({ seed: 93, bytes: 10_000_000, cwd, startMs: Date.UTC(2026, 11, 1) });
  const key = sessionKey('vak', cwdHash(cwd), g.sessionId);
  const file = join(served.home, key);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, g.bytes);
  const lines = readLines(file);
  const hitId = '01a2f000-0000-7000-8000-00000000beef';
  appendFromOtherProcess(file, { id: hitId, parent_id: lines[lines.length - 1].id, text: 'the quokka-umbrella plan' });

  await served.open(page);
  await page.keyboard.press('Control+Shift+F');
  const search = page.getByRole('navigation', { name: 'Search' });
  const field = search.getByRole('searchbox');
  await expect(field).toBeFocused();
  await field.fill('quokka-umbrella');
  const hits = search.locator('.search-hit');
  await expect(hits).toHaveCount(1, { timeout: 60_000 });
  await expect(hits.first()).toHaveAttribute('data-entry-id', hitId);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');

  const row = page.locator(`.tree-row[data-entry-id="${hitId}"]`);
  await expect(page.locator('.tree-row.cursor')).toHaveAttribute('data-entry-id', hitId, { timeout: 60_000 });
  await expect(row).toBeInViewport();
  expect(decodeURIComponent(page.url())).toContain(`leaf=${hitId}`);
  await screenshot(page, 'search-hit-unopened');
});
