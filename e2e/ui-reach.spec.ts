/**
 * What a user sees out of step or out of reach: the tree cursor follows the URL's leaf, the
 * branch form stays on screen, every control fits 1280×800 and 1024×700, the keyboard reaches
 * the panes in a few stops, and the small messages say what happened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { BIG, expect, readLines, sessionHash, test } from './ui-fixture';

/** The tree's cursor row (aria-selected) and whether it lies wholly inside the tree's scroll box. */
const cursorRow = (page: Page) =>
  page.locator('.tree-scroll').evaluate((scroll) => {
    const row = scroll.querySelector<HTMLElement>('[role="option"][aria-selected="true"]');
    if (!row) return null;
    const a = row.getBoundingClientRect();
    const b = scroll.getBoundingClientRect();
    return { id: row.dataset['entryId'] ?? null, visible: a.top >= b.top - 1 && a.bottom <= b.bottom + 1 };
  });

/** The leaf the URL names. */
const urlLeaf = (page: Page) => new URLSearchParams(new URL(page.url()).hash.slice(1)).get('leaf');

/** The deepest entry (in file order) whose parent has more than one child: `]` has somewhere to go from it. */
function deepBranchChild(file: string): string {
  const lines = readLines(file);
  const children = new Map<string, string[]>();
  for (const l of lines) if (l.parent_id) children.set(l.parent_id, [...(children.get(l.parent_id) ?? []), l.id]);
  const forks = lines.filter((l) => (children.get(l.id)?.length ?? 0) > 1);
  return children.get(forks.at(-1)!.id)![0];
}

test('Back/Forward and a pasted leaf= link move the tree cursor there, in view; ] starts from it', async ({
  page,
  served,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const file = join(served.home, BIG);
  const a = deepBranchChild(file);
  await served.open(page, sessionHash(BIG, `&leaf=${encodeURIComponent(a)}`));
  await expect.poll(() => cursorRow(page)).toEqual({ id: a, visible: true });

  // `]` from A: where the next sibling branch is, as a fresh open finds it.
  await page.locator('.tree-scroll').focus();
  await page.keyboard.press(']');
  await expect.poll(() => cursorRow(page).then((c) => c?.id)).not.toBe(a);
  const r = (await cursorRow(page))!.id!;
  await expect.poll(() => urlLeaf(page)).toBe(r);
  // Far from both: the root (a new history entry once the keys rest).
  await page.keyboard.press('Home');
  const root = readLines(file)[0].id;
  await expect.poll(() => urlLeaf(page)).toBe(root);
  await expect.poll(() => cursorRow(page)).toEqual({ id: root, visible: true });

  await page.goBack();
  await expect.poll(() => urlLeaf(page)).toBe(r);
  await expect(page.locator('.leaf-panes')).toHaveAttribute('data-leaf-id', r);
  await expect.poll(() => cursorRow(page)).toEqual({ id: r, visible: true });
  await page.goBack();
  await expect.poll(() => cursorRow(page)).toEqual({ id: a, visible: true });
  await page.goForward();
  await expect.poll(() => cursorRow(page)).toEqual({ id: r, visible: true });
  await page.goBack();
  await expect.poll(() => cursorRow(page)).toEqual({ id: a, visible: true });
  // The keys start from the restored cursor, not from where it was before Back.
  await page.locator('.tree-scroll').focus();
  await page.keyboard.press(']');
  await expect.poll(() => cursorRow(page)).toEqual({ id: r, visible: true });

  // A pasted link (only the hash changes): the cursor goes to its leaf too.
  await page.keyboard.press('Home');
  await expect.poll(() => urlLeaf(page)).toBe(root);
  const mid = readLines(file)[150].id;
  await page.evaluate((hash) => (window.location.hash = hash), sessionHash(BIG, `&leaf=${encodeURIComponent(mid)}`));
  await expect(page.locator('.leaf-panes')).toHaveAttribute('data-leaf-id', mid);
  await expect.poll(() => cursorRow(page)).toEqual({ id: mid, visible: true });
});

/** The element's box lies inside the viewport, and the point at its centre hits the element itself. */
async function onScreen(el: Locator): Promise<{ inside: boolean; hit: boolean }> {
  return el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    const inside = r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { inside, hit: !!top && (top === node || node.contains(top)) };
  });
}

/** Holds the file's flock from another process (as a running agent does) until killed. */
async function holdLock(file: string): Promise<ChildProcess> {
  const child = spawn('flock', ['-x', file, '-c', 'echo locked; sleep 60'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', () => resolve());
    child.on('exit', (code) => reject(new Error(`flock exited with ${code}`)));
  });
  return child;
}

test('the branch form opened on a low row, and its refusal, are wholly on screen', async ({ page, served }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const file = join(served.home, BIG);
  await served.open(page, sessionHash(BIG));
  await expect(page.locator('.tree-row.selected-leaf')).toBeVisible();
  // A row in the tree's lower third (not the last: the form must open below a row with rows under it).
  const id = await page.locator('.tree-scroll').evaluate((scroll) => {
    const b = scroll.getBoundingClientRect();
    const rows = [...scroll.querySelectorAll<HTMLElement>('.tree-row[data-entry-id]')];
    const low = rows.filter((r) => {
      const a = r.getBoundingClientRect();
      return a.top > b.top + (2 * b.height) / 3 && a.bottom < b.bottom - 30;
    });
    return low[0]?.dataset['entryId'] ?? null;
  });
  expect(id).not.toBeNull();
  await page.locator(`.tree-row[data-entry-id="${id}"]`).click();
  await page.keyboard.press('b');
  const form = page.getByRole('group', { name: /Branch from/ });
  const append = form.getByRole('button', { name: 'Append branch' });
  await expect(form.getByRole('textbox')).toBeFocused();
  await expect.poll(() => onScreen(form).then((s) => s.inside)).toBe(true);
  expect(await onScreen(append)).toEqual({ inside: true, hit: true });

  const lock = await holdLock(file);
  try {
    await form.getByRole('textbox').fill('Try it another way.');
    await append.click();
    const refusal = form.getByRole('alert');
    await expect(refusal).toContainText('An agent holds the lock');
    await expect.poll(() => onScreen(refusal)).toEqual({ inside: true, hit: true });
    expect(await onScreen(append)).toEqual({ inside: true, hit: true });
    await page.screenshot({ path: '/tmp/ui-reach-branch-refused.png' });
  } finally {
    lock.kill('SIGTERM');
  }
});
