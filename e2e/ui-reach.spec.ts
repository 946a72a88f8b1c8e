/**
 * What a user sees out of step or out of reach: the tree cursor follows the URL's leaf, the
 * branch form stays on screen, every control fits 1280×800 and 1024×700, the keyboard reaches
 * the panes in a few stops, the small messages say what happened, and the bundled demo's label is
 * shown whole.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { startServe, stopServe } from '../src/test-support/serve-process';
import { BIG, expect, readLines, sessionHash, readingTest, test } from './ui-fixture';

/**
 * The browser globals the page.evaluate callbacks below use. They run in the page; this file is
 * type-checked with the Node libraries only (tsconfig.node.json), so they are declared here, in this module alone.
 */
interface PageRect {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}
interface PageElement {
  tagName: string;
  className: string;
  textContent: string | null;
  dataset: Record<string, string | undefined>;
  parentElement: PageElement | null;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): PageRect;
  getClientRects(): { length: number };
  closest(selector: string): PageElement | null;
  contains(other: unknown): boolean;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  blur(): void;
}
declare const document: {
  body: PageElement;
  activeElement: PageElement | null;
  elementFromPoint(x: number, y: number): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
};
declare const window: { location: { hash: string } };
declare const innerWidth: number;
declare const innerHeight: number;
declare function getComputedStyle(el: PageElement): { visibility: string; overflowX: string; overflowY: string };

/** The tree's cursor row (aria-selected) and whether it lies wholly inside the tree's scroll box. */
const cursorRow = (page: Page) =>
  page.locator('.tree-scroll').evaluate((scroll) => {
    const row = (scroll as unknown as PageElement).querySelector('[role="option"][aria-selected="true"]');
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

readingTest(
  'Back/Forward and a pasted leaf= link move the tree cursor there, in view; ] starts from it',
  async ({ page, served }) => {
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
  },
);

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
    const rows = [...(scroll as unknown as PageElement).querySelectorAll('.tree-row[data-entry-id]')];
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

/**
 * Controls a user cannot reach: outside the window sideways, cut by a box that clips without
 * scrolling, or below the window with nothing to scroll them into view.
 */
const unreachable = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = [];
    const W = innerWidth;
    const H = innerHeight;
    const controls = document.querySelectorAll(
      '.app button:not(.skip-link), .app a[href], .app input, .app select, .app [role="separator"]',
    );
    for (const el of controls) {
      if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      const r = el.getBoundingClientRect();
      const name = `${el.tagName.toLowerCase()}.${el.className} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}" x ${Math.round(r.left)}–${Math.round(r.right)} y ${Math.round(r.top)}–${Math.round(r.bottom)}`;
      if (r.left < -1 || r.right > W + 1) {
        out.push(`${name}: outside the window sideways`);
        continue;
      }
      let scrollsY = false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        const b = a.getBoundingClientRect();
        if (s.overflowX !== 'visible' && (r.left < b.left - 1 || r.right > b.right + 1)) {
          out.push(`${name}: cut sideways by .${a.className}`);
          break;
        }
        if (s.overflowY !== 'visible' && (r.top < b.top - 1 || r.bottom > b.bottom + 1)) {
          if (s.overflowY === 'auto' || s.overflowY === 'scroll') scrollsY = true;
          else {
            out.push(`${name}: cut by .${a.className}`);
            break;
          }
        }
      }
      if ((r.top < -1 || r.bottom > H + 1) && !scrollsY) out.push(`${name}: below the window, nothing scrolls to it`);
    }
    return out;
  });

/** Compare's two projected sides: each at least 400 px wide, or one above the other. */
const compareSides = (page: Page) =>
  page.locator('.compare-panes > .projected-pane').evaluateAll((panes) => {
    const [a, b] = panes.map((p) => p.getBoundingClientRect());
    if (!a || !b) return 'not drawn';
    if (b.top >= a.bottom - 1) return 'stacked';
    return Math.min(a.width, b.width) >= 400
      ? 'side by side, readable'
      : `side by side, ${Math.round(a.width)} px each`;
  });

for (const [width, height] of [
  [1280, 800],
  [1024, 700],
] as const) {
  readingTest(`every control is within reach at ${width}×${height}, compare readable`, async ({ page, served }) => {
    await page.setViewportSize({ width, height });
    await served.open(page, sessionHash(BIG));
    await expect(page.locator('.tree-row.selected-leaf')).toBeVisible();
    const projected = page.getByRole('region', { name: 'Projected context' });
    await expect(projected.locator('.projected-msg').first()).toBeVisible();
    await expect(page.locator('.leaf-panes')).toHaveAttribute('aria-busy', 'false');
    expect(await unreachable(page)).toEqual([]);
    await page.screenshot({ path: `/tmp/ui-reach-${width}.png` });

    await page
      .locator('.plan-bar')
      .getByRole('button', { name: /^compare/ })
      .click();
    await expect(page.locator('.compare-panes > .projected-pane .projected-msg').first()).toBeVisible();
    await expect(page.locator('.compare-panes > .projected-pane')).toHaveCount(2);
    expect(await compareSides(page)).not.toMatch(/px each|not drawn/);
    expect(await unreachable(page)).toEqual([]);
    await page.screenshot({ path: `/tmp/ui-reach-${width}-compare.png` });
  });
}

/** The region focus is in, by its accessible name or class. */
const focusedRegion = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    const r = el?.closest(
      'nav.library, .context-chart, section.tree, .history-pane, .leaf-columns > .projected-pane, .leaf-columns > .compare, .panel-drawer, .plan-bar',
    );
    return r ? (r.getAttribute('aria-label') ?? r.className) : null;
  });

readingTest(
  'the keyboard reaches the projected pane in a few Tabs; F6 and Shift+F6 cycle the regions',
  async ({ page, served }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await served.open(page, sessionHash(BIG));
    await expect(page.locator('.leaf-panes')).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByRole('region', { name: 'History' }).locator('.history-item').first()).toBeVisible();

    // The first stop is the skip link, shown when focused; it leads to the tree's rows.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('button', { name: /Skip to the session tree/ });
    await expect(skip).toBeFocused();
    await expect.poll(() => onScreen(skip)).toEqual({ inside: true, hit: true });
    await page.keyboard.press('Enter');
    await expect(page.locator('.tree-scroll')).toBeFocused();

    // From the top of the page, Tab by Tab, to the projected pane.
    await page.evaluate(() => document.activeElement?.blur());
    let tabs = 0;
    while (tabs < 40) {
      await page.keyboard.press('Tab');
      tabs++;
      if ((await focusedRegion(page)) === 'Projected context') break;
    }
    console.log(`Tabs from the page's start to the projected pane: ${tabs}`);
    expect(tabs).toBeLessThanOrEqual(16);
    // One stop per list: the next Tab leaves the projected pane's list (no walk through every message).
    const inList = await page.evaluate(() => !!document.activeElement?.closest('.projected-pane .pane-scroll'));
    if (inList) {
      await page.keyboard.press('ArrowDown');
      expect(await focusedRegion(page)).toBe('Projected context');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('.projected-pane .pane-scroll'))).toBe(false);
    }

    // F6 walks every region once and comes back; Shift+F6 walks back.
    await page.locator('.tree-scroll').focus();
    const seen: (string | null)[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('F6');
      seen.push(await focusedRegion(page));
    }
    expect(seen).toEqual([
      'History',
      'Projected context',
      'Plan and panels',
      'Library',
      'Context over time',
      'Session tree',
    ]);
    await expect(page.locator('.tree-scroll')).toBeFocused();
    await page.keyboard.press('Shift+F6');
    expect(await focusedRegion(page)).toBe('Context over time');
    // From a text field too.
    await page.getByRole('searchbox', { name: 'Filter sessions' }).focus();
    await page.keyboard.press('F6');
    expect(await focusedRegion(page)).toBe('Context over time');
  },
);

readingTest('a leaf= the session does not have says so and offers the active leaf', async ({ page, served }) => {
  const file = join(served.home, BIG);
  await served.open(page, sessionHash(BIG, '&leaf=does-not-exist'));
  const alert = page.locator('.leaf-panes [role="alert"]');
  await expect(alert).toContainText('does-not-exist');
  await expect(alert).toContainText('this session does not have');
  await alert.getByRole('button', { name: 'Show the active leaf' }).click();
  const lines = readLines(file);
  const active = lines.at(-1)!.id;
  await expect(page.locator('.leaf-panes')).toHaveAttribute('data-leaf-id', active);
  await expect.poll(() => cursorRow(page)).toEqual({ id: active, visible: true });
});

readingTest(
  'axe: every control name holds its visible text (label-content-name-mismatch)',
  async ({ page, served }) => {
    await served.open(page, sessionHash(BIG));
    await expect(
      page.getByRole('region', { name: 'Projected context' }).locator('.projected-msg').first(),
    ).toBeVisible();
    // Evaluated, not added as a script tag: the page's CSP (script-src 'self') refuses inline scripts.
    await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run: (c: unknown, o: unknown) => Promise<{ violations: { id: string; nodes: { html: string }[] }[] }>;
          };
        }
      ).axe;
      const r = await axe.run(document, { runOnly: { type: 'rule', values: ['label-content-name-mismatch'] } });
      return r.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.html) }));
    });
    expect(violations).toEqual([]);
  },
);

test("paths are shortened under the user's own home only; a library row's hover holds its whole title", async ({
  page,
  served,
}) => {
  // The fixture home's sessions ran in /home/ana/…: served for a user whose home that is, and for another.
  const data = mkdtempSync(join(tmpdir(), 'vak-reach-home-'));
  const cwdHeads = async (userHome: string): Promise<string[]> => {
    const s = await startServe(served.home, 30_000, { ...process.env, HOME: userHome, XDG_DATA_HOME: data });
    try {
      await page.goto(s.url);
      const heads = page.locator('button.group.cwd');
      await expect(heads.first()).toBeVisible();
      return (await heads.allTextContents()).map((t) => t.replace(/^[▾▸]\s*/, ''));
    } finally {
      s.child.kill('SIGTERM');
    }
  };
  try {
    const ana = await cwdHeads('/home/ana');
    expect(ana).toContain('~/projects/vak');
    expect(ana.every((t) => !t.startsWith('/home/ana'))).toBe(true);
    const bob = await cwdHeads('/home/bob');
    expect(bob).toContain('/home/ana/projects/vak');
    expect(bob.some((t) => t.startsWith('~'))).toBe(false);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
  // Hover: the row's tooltip starts with the whole title the row may cut with an ellipsis.
  await served.open(page);
  const row = page.locator('.session-row').first();
  const title = (await row.locator('.session-title').textContent()) ?? '';
  const tip = (await row.locator('[title]').first().getAttribute('title')) ?? '';
  expect(title.length).toBeGreaterThan(0);
  expect(tip.split('\n')[0]).toBe(title);
});

test('with no home anywhere, the bundled demo opens under a label shown whole at 1280×800', async ({ page }) => {
  // No --home, no $VAK_HOME, a user home without ~/.vak: serve falls back to the bundled demo, read only.
  const dir = mkdtempSync(join(tmpdir(), 'vak-reach-demo-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: join(dir, 'user'), XDG_DATA_HOME: join(dir, 'data') };
  delete env.VAK_HOME;
  const s = await startServe(null, 30_000, env);
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(s.url);
    const label = page.locator('nav.library .demo-label');
    await expect(label).toHaveText('Demo home (bundled)');
    await expect(page.locator('.session-row').first()).toBeVisible();
    // Whole: nothing cut (an ellipsis cuts what overflows its box), on one line beside the search button.
    // (A string: the page's DOM is not in this file's types.) A range over the text has a box per line.
    const fit = await page.evaluate(`(() => {
      const el = document.querySelector('nav.library .demo-label');
      const text = document.createRange();
      text.selectNodeContents(el);
      return { cut: el.scrollWidth > el.clientWidth, lines: text.getClientRects().length };
    })()`);
    expect(fit).toEqual({ cut: false, lines: 1 });
    await expect(page.locator('nav.library').getByRole('button', { name: /search/i })).toBeVisible();
  } finally {
    await stopServe(s.child);
    rmSync(dir, { recursive: true, force: true });
  }
});
