/**
 * A big session's first open answers before its hash chain is checked (the check runs
 * after the read). While it is pending the warnings count says so ("…", with a title); when it is
 * done, the hash mismatches it found are counted in the plan bar and the library row, as a whole
 * read counts them (`vak-explorer verify`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateSession } from '../src/generator';
import { cwdHash } from '../src/main/core/fnv1a64';
import { sessionKey } from '../src/shared/session-key';
import { expect, screenshot, test, verify } from './ui-fixture';

test('a big session: warnings counted "…" until the hash chain is checked, then its mismatches', async ({
  page,
  served,
}) => {
  // Bigger than a first read (4 MiB): read in steps, its hash chain checked after.
  const cwd = '/home/ana/projects/hash-check';
  const g = generateSession({ seed: 91, bytes: 6_000_000, cwd });
  const lines = g.bytes.toString('utf8').trimEnd().split('\n');
  const k = Math.floor(lines.length / 2);
  lines[k] = lines[k].replace(/"prev_hash":"([0-9a-f])/, (_m, c: string) => `"prev_hash":"${c === '0' ? '1' : '0'}`);
  const key = sessionKey('vak', cwdHash(cwd), g.sessionId);
  const file = join(served.home, key);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, lines.join('\n') + '\n');
  const mismatches = verify(file).warnings.filter((w) => w.code === 'hash_mismatch').length;
  expect(mismatches).toBe(2); // the changed line, and the next (it hashed the line as first written)

  // Kept from the first open on: what the warnings button says, with its title.
  await page.addInitScript({
    content: `window.__warnings = []; new MutationObserver(() => {
      const b = [...document.querySelectorAll('footer.plan-bar button')].find((x) => x.textContent.startsWith('warnings'));
      const seen = b ? b.textContent + '|' + (b.title || '') : null;
      if (seen && window.__warnings.at(-1) !== seen) window.__warnings.push(seen);
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });`,
  });
  // The check of 6 MB can end before the page has drawn the open's answer (a quick machine, a busy
  // page), and the page then never shows the state this test is about. So the server's frames
  // from its `checked` event on are held, in order, until the page shows the check pending: the
  // page must draw it from the open's answer alone (which the backend sends after its first read
  // step, before the check).
  let release = (): void => undefined;
  const drawnPending = new Promise<void>((resolve) => (release = resolve));
  let checkedSent = false;
  await page.routeWebSocket(/\/api\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    let holding = false;
    server.onMessage((m) => {
      if (!holding && typeof m === 'string' && /"change":"checked"/.test(m)) holding = true;
      if (!holding) return ws.send(m);
      void drawnPending.then(() => {
        checkedSent = true;
        ws.send(m);
      });
    });
  });
  // Opened from the library, so the open's answer comes over the socket (a page opened on the
  // session's link asks it over HTTP with its first screen, answered at the read's end).
  await served.open(page);
  await page.locator(`button.session-item[data-session-key="${key}"]`).click();
  const button = page.locator('footer.plan-bar').getByRole('button', { name: /^warnings/ });
  await expect(button).toHaveText('warnings 0…', { timeout: 30_000 });
  await expect(button).toHaveAttribute('title', 'Checking the hash chain: hash mismatches are not counted yet');
  expect(checkedSent).toBe(false);
  release();
  await expect(button).toHaveText(`warnings ${mismatches}`, { timeout: 30_000 });
  expect(checkedSent).toBe(true); // (the page's socket went through the route: the event was held)
  await expect(button).not.toHaveAttribute('title');
  // The library row of that session (its folder is the one cwd group with that title) counts them too.
  const group = page
    .getByRole('navigation', { name: 'Library' })
    .locator('li', { has: page.locator(`button[title="${cwd}"]`) });
  await expect(group.locator('.warn-warnings')).toHaveAttribute('aria-label', new RegExp(`^${mismatches} warnings`));
  const seen = (await page.evaluate('window.__warnings')) as string[];
  expect(seen).toContain('warnings 0…|Checking the hash chain: hash mismatches are not counted yet');
  expect(seen.at(-1)).toBe(`warnings ${mismatches}|`);
  // Rows were asked again (their warning marks): drawn, the active leaf's among them.
  await expect(page.locator('.tree-row.selected-leaf, .tree-row.cursor').first()).toBeVisible();
  await expect(page.locator('.tree-row:not(.placeholder)').first()).toBeVisible();
  await screenshot(page, 'hash-check-done');
});
