import type { Page } from '@playwright/test';
import { BIG, expect, sessionHash, readingTest as test } from './ui-fixture';

interface Sent {
  id: number;
  method: string;
  body: string;
  /** Order of this request among every frame seen (sent and received). */
  at: number;
  answeredAt: number | null;
}

/** Every request the page sends over its WebSocket, with the order its answer came in. */
function tap(page: Page): Sent[] {
  const sent: Sent[] = [];
  let seq = 0;
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => {
      if (typeof f.payload !== 'string') return;
      const m = /^\{"id":(\d+),"method":"(\w+)"/.exec(f.payload);
      if (m)
        sent.push({
          id: Number(m[1]),
          method: m[2],
          body: f.payload.slice(f.payload.indexOf('"method"')),
          at: seq++,
          answeredAt: null,
        });
    });
    ws.on('framereceived', (f) => {
      if (typeof f.payload !== 'string') return;
      const m = /^\{"id":(\d+),"ok"/.exec(f.payload);
      const s = m ? sent.find((x) => x.id === Number(m[1]) && x.answeredAt === null) : undefined;
      if (s) s.answeredAt = seq++;
    });
  });
  return sent;
}

const panesDrawn = (page: Page) =>
  expect(
    page.locator('.leaf-panes[data-leaf-id][aria-busy="false"] section[aria-label="History"] .history-item').first(),
  ).toBeVisible();

test('a reload opens the session in one round trip: each request once, no findRow, the chart after the panes', async ({
  page,
  served,
}) => {
  await served.open(page, sessionHash(BIG));
  await expect(page.locator('.tree-row.cursor')).toContainText('◀ active');
  await panesDrawn(page);

  const sent = tap(page);
  await page.reload();
  await expect(page.locator('.tree-row.cursor')).toContainText('◀ active');
  await panesDrawn(page);
  await expect.poll(() => sent.filter((s) => s.method === 'getContextSeries').length).toBe(1);

  // The open brought the active leaf's row (the last of 308): no findRow, and its page is asked
  // first (the rows at the top only if they are on screen too).
  expect(sent.filter((s) => s.method === 'findRow')).toHaveLength(0);
  const pages = sent.filter((s) => s.method === 'getTreeRows');
  expect(pages[0].body).toContain('"start":256,');
  // The rows and the leaf view this tab showed were asked with the open, before its answer (the
  // rows first), and taken by the tree and the panes: each asked once.
  const open = sent.find((s) => s.method === 'openSession')!;
  const view = sent.find((s) => s.method === 'getLeafView')!;
  expect(pages[0].at).toBeLessThan(view.at);
  expect(view.at).toBeLessThan(open.answeredAt!);
  expect(sent.filter((s) => s.method === 'getLeafView')).toHaveLength(1);
  // The chart's series waits for the leaf view's answer.
  const series = sent.find((s) => s.method === 'getContextSeries')!;
  expect(series.at).toBeGreaterThan(view.answeredAt!);
  // The library's listing, counts and subscription wait for the first screen too (the page's
  // first idle moment, which the series need not precede), then come.
  const libraryOf = () =>
    sent.filter(
      (s) =>
        ['getHome', 'listSessions', 'listRecentFiles', 'getSecretSurvey'].includes(s.method) ||
        (s.method === 'subscribe' && s.body.includes('"topic":"library"')),
    );
  await expect
    .poll(() =>
      libraryOf()
        .map((s) => s.method)
        .sort(),
    )
    .toEqual(['getHome', 'getSecretSurvey', 'listRecentFiles', 'listSessions', 'subscribe'].sort());
  for (const s of libraryOf()) expect(s.at).toBeGreaterThan(view.answeredAt!);
  await expect(page.getByRole('navigation', { name: 'Library' }).locator('.session-item').first()).toBeVisible();
  // Ask-once: never the same request twice.
  const bodies = sent.map((s) => s.body);
  expect(bodies.filter((b, i) => bodies.indexOf(b) !== i && !b.includes('"getSecret'))).toEqual([]);
});

test('a reload after choosing another leaf asks its row, rows and leaf view once, with the open', async ({
  page,
  served,
}) => {
  await served.open(page, sessionHash(BIG));
  const cursor = page.locator('.tree-row.cursor');
  await expect(cursor).toContainText('◀ active');
  await panesDrawn(page);
  // Three rows up from the active leaf (the last of 308): still on the second page of rows.
  await page.locator('.tree-scroll').focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('k');
  await expect(cursor).not.toContainText('◀ active');
  const chosen = (await cursor.getAttribute('data-entry-id'))!;
  await expect.poll(() => decodeURIComponent(page.url())).toContain(`leaf=${chosen}`);
  await expect(page.locator(`.leaf-panes[data-leaf-id="${chosen}"][aria-busy="false"]`)).toBeVisible();

  const sent = tap(page);
  const cancels: string[] = [];
  page.on('websocket', (ws) =>
    ws.on(
      'framesent',
      (f) => typeof f.payload === 'string' && f.payload.startsWith('{"cancel"') && cancels.push(f.payload),
    ),
  );
  await page.reload();
  await expect(cursor).toHaveAttribute('data-entry-id', chosen);
  await expect(page.locator(`.leaf-panes[data-leaf-id="${chosen}"][aria-busy="false"]`)).toBeVisible();
  await expect.poll(() => sent.filter((s) => s.method === 'getContextSeries').length).toBe(1);

  // The leaf's row, its page of rows and its leaf view left with the open, before its answer,
  // and were taken: one findRow, one page of rows (the leaf's, not the top's), nothing cancelled.
  const open = sent.find((s) => s.method === 'openSession')!;
  const finds = sent.filter((s) => s.method === 'findRow');
  const pages = sent.filter((s) => s.method === 'getTreeRows');
  const views = sent.filter((s) => s.method === 'getLeafView');
  expect(finds).toHaveLength(1);
  expect(finds[0].body).toContain(`"id":"${chosen}"`);
  expect(pages).toHaveLength(1);
  expect(pages[0].body).toContain('"start":256,');
  expect(views).toHaveLength(1);
  for (const s of [finds[0], pages[0], views[0]]) expect(s.at).toBeLessThan(open.answeredAt!);
  expect(cancels).toEqual([]);
  const bodies = sent.map((s) => s.body);
  expect(bodies.filter((b, i) => bodies.indexOf(b) !== i && !b.includes('"getSecret'))).toEqual([]);
});

test('a reload opens its socket before the bundle runs and asks for the session before the app renders', async ({
  page,
  served,
}) => {
  await served.open(page, sessionHash(BIG));
  await panesDrawn(page);
  // Every socket the page makes, with whether the document was still being parsed (the bundle,
  // a module script, runs only after that).
  // (A string: this file is typed without the DOM.)
  await page.addInitScript(`
    window.__made = [];
    const Ws = window.WebSocket;
    window.WebSocket = class extends Ws {
      constructor(url, protocols) {
        super(url, protocols);
        window.__made.push(document.readyState);
      }
    };
  `);
  const sent = tap(page);
  await page.reload();
  await expect(page.locator('.tree-row.cursor')).toContainText('◀ active');
  await panesDrawn(page);
  // One socket, opened while the page was still parsed: the inline script's, adopted by the app.
  expect(await page.evaluate('window.__made')).toEqual(['loading']);
  // The session's open is asked before the app's first render: its requests lead the library's.
  const first = sent.slice(0, 2).map((s) => s.method);
  expect(first).toEqual(['subscribe', 'openSession']);
  expect(sent[0].body).toContain('"topic":"session"');
});

test('the content-named assets are kept by the browser: a reload takes them from its cache', async ({
  page,
  served,
}) => {
  const headers = new Map<string, string>();
  page.on('response', (r) => {
    if (r.url().includes('/assets/')) headers.set(new URL(r.url()).pathname, r.headers()['cache-control'] ?? '');
  });
  await served.open(page);
  const scripts = [...headers].filter(([p]) => p.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  for (const [, cc] of scripts) expect(cc).toContain('immutable');
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Library' })).toBeVisible();
  const fetched = (await page.evaluate(
    `performance.getEntriesByType('resource').filter((r) => r.name.includes('/assets/') && r.name.endsWith('.js')).map((r) => r.transferSize)`,
  )) as number[];
  expect(fetched.length).toBeGreaterThan(0);
  // transferSize 0: taken from the cache, no request to the server.
  expect(fetched.every((n) => n === 0)).toBe(true);
});

test('the first screen loads no markdown renderer: the rendered view loads it, kept like the other assets', async ({
  page,
  served,
}) => {
  const scripts: { path: string; cacheControl: string }[] = [];
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/assets/') && path.endsWith('.js'))
      scripts.push({ path, cacheControl: r.headers()['cache-control'] ?? '' });
  });
  await served.open(page, sessionHash(BIG));
  await panesDrawn(page);
  await page.reload();
  await expect(page.locator('.tree-row.cursor')).toContainText('◀ active');
  await panesDrawn(page);
  const isMarkdown = (s: { path: string }) => /\/markdown-text-[\w-]{8}\.js$/.test(s.path);
  expect(scripts.filter(isMarkdown)).toEqual([]);
  const pane = page.locator('section[aria-label="Projected context"]');
  await pane.getByRole('button', { name: 'markdown' }).click();
  await expect(pane.locator('.markdown').first()).toBeVisible();
  const loaded = scripts.filter(isMarkdown);
  expect(loaded).toHaveLength(1);
  expect(loaded[0].cacheControl).toContain('immutable');
});
