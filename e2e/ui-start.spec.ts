import type { Page } from '@playwright/test';
import { BIG, expect, sessionHash, readingTest as test, type Served } from './ui-fixture';

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

interface EarlyPost {
  asks: { method: string; req: Record<string, unknown> }[];
  /** Order of the post's answer among the socket's frames (null: not answered yet). */
  answeredAt: number | null;
  status: number | null;
}

/**
 * The early answers a page posts from index.html's first script (serve mode), ordered with the
 * socket's frames that `tap` records (its `at` and `answeredAt` count on the same sequence).
 */
function tapEarly(page: Page, sent: Sent[]): EarlyPost[] {
  const posts: EarlyPost[] = [];
  const seq = (): number => sent.reduce((n, s) => Math.max(n, s.at, s.answeredAt ?? -1), -1) + 0.5;
  page.on('request', (r) => {
    if (r.method() !== 'POST' || !r.url().endsWith('/api/early')) return;
    const body = JSON.parse(r.postData() ?? '{}') as { asks: EarlyPost['asks'] };
    posts.push({ asks: body.asks, answeredAt: null, status: null });
  });
  page.on('response', (r) => {
    if (r.request().method() !== 'POST' || !r.url().endsWith('/api/early')) return;
    const p = posts.find((x) => x.answeredAt === null);
    if (p) {
      p.answeredAt = seq();
      p.status = r.status();
    }
  });
  return posts;
}

/** The requests the page asks on a reload before it knows the open's answer: over HTTP, not the socket. */
const EARLY_METHODS = ['openSession', 'findRow', 'getTreeRows', 'getLeafView'];

/** Whether the tree's cursor row is shown whole in the tree's box. (A string: the e2e files are typed without the DOM's names.) */
const cursorRowInView = async (page: Page): Promise<boolean> =>
  (await page.evaluate(`(() => {
    const box = document.querySelector('.tree-scroll').getBoundingClientRect();
    const row = document.querySelector('.tree-row.cursor').getBoundingClientRect();
    return row.top >= box.top - 0.5 && row.bottom <= box.bottom + 0.5;
  })()`)) as boolean;

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
  const posts = tapEarly(page, sent);
  await page.reload();
  await expect(page.locator('.tree-row.cursor')).toContainText('◀ active');
  await panesDrawn(page);
  await expect.poll(() => sent.filter((s) => s.method === 'getContextSeries').length).toBe(1);

  // The open, the rows and the leaf view this tab showed were posted at once, in one request,
  // by index.html's script, and taken from its answer: none is asked on the socket, and the open
  // brought the active leaf's row (the last of 308): no findRow; its page of rows is asked.
  expect(posts).toHaveLength(1);
  expect(posts[0].status).toBe(200);
  expect(posts[0].asks.map((a) => a.method)).toEqual(['openSession', 'getTreeRows', 'getLeafView']);
  expect(posts[0].asks[1].req).toMatchObject({ start: 256 });
  expect(sent.filter((s) => EARLY_METHODS.includes(s.method))).toEqual([]);
  // The session's subscription names what the open showed, so an append in between is told.
  const sub = sent.find((s) => s.method === 'subscribe' && s.body.includes('"topic":"session"'))!;
  expect(sub.body).toContain('"since":{"generation":');
  const view = { answeredAt: posts[0].answeredAt! };
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
  const activeRow = Number((await cursor.getAttribute('id'))!.replace('tree-row-', ''));
  await page.locator('.tree-scroll').focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('k');
  // Keys run in order; one whose row is still being fetched is drawn once it comes.
  await expect(cursor).toHaveAttribute('id', `tree-row-${activeRow - 3}`);
  const chosen = (await cursor.getAttribute('data-entry-id'))!;
  await expect.poll(() => decodeURIComponent(page.url())).toContain(`leaf=${chosen}`);
  await expect(page.locator(`.leaf-panes[data-leaf-id="${chosen}"][aria-busy="false"]`)).toBeVisible();

  const sent = tap(page);
  const posts = tapEarly(page, sent);
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

  // The leaf's row, its page of rows and its leaf view were posted with the open, in one request,
  // and taken from its answer: the leaf's page of rows (not the top's), nothing on the socket,
  // nothing cancelled.
  expect(posts).toHaveLength(1);
  expect(posts[0].status).toBe(200);
  expect(posts[0].asks.map((a) => a.method)).toEqual(['openSession', 'findRow', 'getTreeRows', 'getLeafView']);
  expect(posts[0].asks[1].req).toMatchObject({ id: chosen });
  expect(posts[0].asks[2].req).toMatchObject({ start: 256 });
  expect(posts[0].asks[3].req).toMatchObject({ leaf: chosen });
  expect(sent.filter((s) => EARLY_METHODS.includes(s.method))).toEqual([]);
  expect(cancels).toEqual([]);
  const bodies = sent.map((s) => s.body);
  expect(bodies.filter((b, i) => bodies.indexOf(b) !== i && !b.includes('"getSecret'))).toEqual([]);
});

/** The big demo session opened, its panes drawn: where a reload starts from. */
async function bigSessionShown(page: Page, served: Served): Promise<void> {
  await served.open(page, sessionHash(BIG));
  await panesDrawn(page);
}

test('a reload opens its socket before the bundle runs and asks for the session before the app renders', async ({
  page,
  served,
}) => {
  await bigSessionShown(page, served);
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
  await page.addInitScript(`
    window.__posted = [];
    const f = window.fetch;
    window.fetch = (url, init) => {
      window.__posted.push([String(url), document.readyState]);
      return f(url, init);
    };
  `);
  const sent = tap(page);
  const posts = tapEarly(page, sent);
  await page.reload();
  await expect(page.locator('.tree-row.cursor')).toContainText('◀ active');
  await panesDrawn(page);
  // One socket, opened while the page was still parsed: the inline script's, adopted by the app.
  expect(await page.evaluate('window.__made')).toEqual(['loading']);
  // The session's first requests were posted then too, before the bundle ran.
  expect(await page.evaluate('window.__posted.filter((p) => p[0] === "/api/early")')).toEqual([
    ['/api/early', 'loading'],
  ]);
  expect(posts.map((p) => p.status)).toEqual([200]);
  // On the socket, the session's subscription leads the library's requests.
  expect(sent[0].method).toBe('subscribe');
  expect(sent[0].body).toContain('"topic":"session"');
});

test('a page whose first answers come after its script ran draws the session and its rows in its first render', async ({
  page,
  served,
}) => {
  await bigSessionShown(page, served);
  // The early answers reach the page 100 ms after the entry script takes them (early-asks.ts
  // takeHttpEarly reads window.__vakEarlyAnswers): a slow server, simulated in the page so that
  // nothing else delays them. Rendered at once, the app would draw an empty shell first; it waits
  // for them instead (main.tsx caps the wait at 400 ms, a timer set after this one and due later).
  // Recorded: what #root holds once anything is drawn in it. (A string: this file is typed
  // without the DOM.)
  await page.addInitScript(`
    let release;
    const released = new Promise((resolve) => (release = resolve));
    const fetched = window.fetch;
    window.fetch = (url, init) => {
      const answer = fetched(url, init);
      return String(url) === '/api/early' ? answer.then(async (r) => { await released; return r; }) : answer;
    };
    let kept;
    Object.defineProperty(window, '__vakEarlyAnswers', {
      configurable: true,
      set(v) { kept = v; },
      get() { setTimeout(release, 100); return kept; },
    });
    window.__firstDraw = null;
    new MutationObserver((_, seen) => {
      const root = document.getElementById('root');
      if (!root || root.childElementCount === 0) return;
      window.__firstDraw = {
        rows: root.querySelectorAll('.tree-row[data-entry-id]').length,
        cursor: root.querySelector('.tree-row.cursor')?.textContent ?? null,
      };
      seen.disconnect();
    }).observe(document, { childList: true, subtree: true });
  `);
  await page.reload();
  await expect(page.locator('.tree-row.cursor')).toContainText('◀ active');
  // Not an empty shell first (a render and a layout more before the rows): the session with its rows.
  const first = (await page.evaluate('window.__firstDraw')) as { rows: number; cursor: string | null };
  expect(first.rows).toBeGreaterThan(0);
  expect(first.cursor).toContain('◀ active');
});

test('a page whose first answers do not come still draws, and shows the session once they do', async ({
  page,
  served,
}) => {
  await bigSessionShown(page, served);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/early', async (route) => {
    await held;
    await route.continue();
  });
  await page.reload();
  // The first render waits for the answers only so long (main.tsx FIRST_ANSWERS_CAP_MS).
  await expect(page.getByRole('navigation', { name: 'Library' })).toBeVisible();
  await expect(page.locator('.tree-row[data-entry-id]')).toHaveCount(0);
  release();
  await expect(page.locator('.tree-row.cursor')).toContainText('◀ active');
  await panesDrawn(page);
});

test('the content-named chunks are kept by the browser, the entry script is fetched each load', async ({
  page,
  served,
}) => {
  const headers = new Map<string, string>();
  page.on('response', (r) => {
    if (r.url().includes('/assets/')) headers.set(new URL(r.url()).pathname, r.headers()['cache-control'] ?? '');
  });
  await served.open(page);
  // The script index.html runs: everything the first screen needs (web/static-files.ts).
  const entry = new URL((await page.evaluate(`document.querySelector('script[type="module"][src]').src`)) as string)
    .pathname;
  const isJs = ([p]: [string, string]) => p.endsWith('.js');
  // The lazy parts load after the first screen, at an idle moment: wait for one, so the reload
  // below has a kept chunk to take.
  await expect.poll(() => [...headers].filter(isJs).some(([p]) => p !== entry)).toBe(true);
  const scripts = [...headers].filter(isJs);
  for (const [p, cc] of scripts) expect(cc, p).toBe(p === entry ? 'no-store' : 'public, max-age=31536000, immutable');
  const first = new Set(scripts.map(([p]) => p));
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Library' })).toBeVisible();
  const resources = async (): Promise<Map<string, number>> =>
    new Map(
      (await page.evaluate(
        `performance.getEntriesByType('resource').filter((r) => r.name.includes('/assets/') && r.name.endsWith('.js')).map((r) => [new URL(r.name).pathname, r.transferSize])`,
      )) as Array<[string, number]>,
    );
  // The reloaded page loads its lazy parts again after its first screen: wait for one of those
  // the first load fetched.
  await expect.poll(async () => [...(await resources()).keys()].some((p) => first.has(p) && p !== entry)).toBe(true);
  const again = await resources();
  // transferSize 0: taken from the cache, no request to the server. The entry comes from the
  // server again: no code cache is made for it on the main thread at this second load.
  expect(again.get(entry) ?? 0).toBeGreaterThan(0);
  const kept = [...again].filter(([p]) => first.has(p) && p !== entry);
  expect(kept.filter(([, n]) => n !== 0)).toEqual([]);
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
  await bigSessionShown(page, served);
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

test('a panel opened below the tree keeps the cursor row in view, and so does a reload with it open', async ({
  page,
  served,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await served.open(page, sessionHash(BIG));
  const cursor = page.locator('.tree-row.cursor');
  await expect(cursor).toContainText('◀ active');
  await panesDrawn(page);
  const inView = () => cursorRowInView(page);
  const treeHeight = async (): Promise<number> =>
    (await page.evaluate(`document.querySelector('.tree-scroll').clientHeight`)) as number;
  expect(await inView()).toBe(true);
  const tall = await treeHeight();
  await page.locator('.tree-scroll').focus();
  await page.keyboard.press('$');
  await expect(page.locator('section.panel-cost .panel-body table').first()).toBeVisible();
  // The panel took the tree's lower part: the active leaf's row (the last) is still shown.
  await expect.poll(treeHeight).toBeLessThan(tall);
  await expect.poll(inView).toBe(true);
  await page.reload();
  await expect(cursor).toContainText('◀ active');
  await panesDrawn(page);
  await expect(page.locator('section.panel-cost .panel-body table').first()).toBeVisible();
  await expect.poll(inView).toBe(true);
});

test('a reload shows the kept row in view, in a window of the same height and of another', async ({ page, served }) => {
  await page.setViewportSize({ width: 1500, height: 1000 });
  await served.open(page, sessionHash(BIG));
  const cursor = page.locator('.tree-row.cursor');
  await expect(cursor).toContainText('◀ active');
  await panesDrawn(page);
  // A row near the top: the tree opens a reload with it at the screen's end, from the box's
  // height kept by this load (a taller guess than the smaller window's box puts it below).
  await page.locator('.tree-scroll').focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 25; i++) await page.keyboard.press('j');
  // Home may still be fetching the first rows: the presses wait for it and step from row 0.
  await expect(cursor).toHaveAttribute('id', 'tree-row-25');
  const chosen = (await cursor.getAttribute('data-entry-id'))!;
  await expect.poll(() => decodeURIComponent(page.url())).toContain(`leaf=${chosen}`);
  const inView = () => cursorRowInView(page);
  for (const height of [1000, 600]) {
    await page.setViewportSize({ width: 1500, height });
    await page.reload();
    await expect(cursor).toHaveAttribute('data-entry-id', chosen);
    expect(await inView()).toBe(true);
    await expect(page.locator(`.leaf-panes[data-leaf-id="${chosen}"][aria-busy="false"]`)).toBeVisible();
    // Every row of the screen drawn, none left a placeholder.
    await expect(page.locator('.tree-row.placeholder')).toHaveCount(0);
  }
});
