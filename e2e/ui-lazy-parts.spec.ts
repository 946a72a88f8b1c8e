import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, ROOT, sessionHash, SMALL, readingTest as test } from './ui-fixture';

const ASSETS = join(ROOT, 'out', 'renderer', 'assets');

/** Words only a lazy part draws (its chunk has them, the first screen's code must not). */
const LAZY_MARKS = [
  ['the command palette', 'Entry lookup progress'],
  ['the search column', 'Close search (Esc)'],
  ['the comparison', 'Close compare'],
  ['the cost panel', 'Session cost'],
] as const;

/** The scripts a page reads before its first screen: index.html's entry and what it imports statically. */
function firstScreenScripts(): Map<string, string> {
  const html = readFileSync(join(ROOT, 'out', 'renderer', 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]*src="\.\/assets\/([^"]+\.js)"/.exec(html)?.[1];
  expect(entry, 'index.html names its entry script').toBeTruthy();
  const seen = new Map<string, string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    const text = readFileSync(join(ASSETS, file), 'utf8');
    seen.set(file, text);
    // Static imports only (`import{…}from"./x.js"`, `import"./x.js"`), not `import("./x.js")`.
    for (const m of text.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[^"'();]*?from\s*)?["']\.\/([^"']+\.js)["']/g))
      visit(m[1]!);
  };
  visit(entry!);
  return seen;
}

test('the first screen’s scripts leave out the lazy parts, whose chunks the build emits', () => {
  const first = firstScreenScripts();
  for (const [part, mark] of LAZY_MARKS) {
    for (const [file, text] of first) expect(text.includes(mark), `${part} in ${file}`).toBe(false);
    const chunk = readdirSync(ASSETS).find(
      (f) => f.endsWith('.js') && !first.has(f) && readFileSync(join(ASSETS, f), 'utf8').includes(mark),
    );
    expect(chunk, `a chunk of its own for ${part}`).toBeTruthy();
  }
});

test('a lazy part is fetched after the first screen and works on first use', async ({ page, served }) => {
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await served.open(page, sessionHash(SMALL));
  await expect(page.locator('.leaf-panes[data-leaf-id]')).toBeVisible();
  // Loaded after the first screen, before any use.
  await expect.poll(() => fetched.some((p) => /\/assets\/command-palette-[^/]+\.js$/.test(p))).toBe(true);
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette.getByRole('combobox')).toBeFocused();
  await expect(palette.locator('[role=option]').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(palette).toHaveCount(0);
});

test('a lazy part whose chunk cannot be loaded says so, and the page goes on', async ({ page, served }) => {
  let blocked = 0;
  await page.route(/\/assets\/command-palette-[^/]+\.js$/, (route) => {
    blocked++;
    return route.abort();
  });
  await served.open(page, sessionHash(SMALL));
  await expect(page.locator('.leaf-panes[data-leaf-id]')).toBeVisible();
  await page.keyboard.press('Control+K');
  await expect(page.getByRole('alert').filter({ hasText: 'could not be loaded' })).toBeVisible();
  expect(blocked).toBeGreaterThan(0);
  // The rest of the page is still there.
  await expect(page.getByRole('navigation', { name: 'Library' })).toBeVisible();
  await expect(page.locator('.leaf-panes[data-leaf-id]')).toBeVisible();
});
