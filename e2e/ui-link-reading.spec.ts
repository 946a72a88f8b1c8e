/**
 * A link to a big session the server is still reading (serve mode). The page's first script asks
 * the open over HTTP; its answer comes after the read's first step. The page takes that open as it
 * is and subscribes naming where it stood (`since`); the steps the server read and announced before
 * that subscription come in the page's next event, as one delta from there. The page never asks
 * the open again, and ends showing what a whole read shows.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import WebSocket from 'ws';
import { generateSession } from '../src/generator';
import { cwdHash } from '../src/main/core/fnv1a64';
import { sessionKey } from '../src/shared/session-key';
import { expect, readLines, sessionHash, test, verify } from './ui-fixture';

/** What the early answer's open showed. */
interface Opened {
  generation: number;
  entryCount: number;
  reading: unknown;
}

interface SessionFrame {
  event?: { type: string; change?: string; entryCount?: number; delta?: { firstNewIndex: number } };
}

test('a link to a session still read: the HTTP open is taken as it is, the steps missed come in the next event', async ({
  page,
  served,
}) => {
  // Several first-read steps (4 MiB each) with branches: read in steps, announced one by one.
  const cwd = '/home/ana/projects/link-reading';
  const g = generateSession({ seed: 93, bytes: 40_000_000, cwd, branchChance: 0.05 });
  const key = sessionKey('vak', cwdHash(cwd), g.sessionId);
  const file = join(served.home, key);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, g.bytes);
  const whole = verify(file);
  const children = new Map<string, number>();
  for (const l of readLines(file)) if (l.parent_id) children.set(l.parent_id, (children.get(l.parent_id) ?? 0) + 1);
  const branchPoints = [...children.values()].filter((n) => n > 1).length;
  const leaves = whole.entries - children.size;

  // The page's socket: what it asks, and the session's events it hears.
  const sent: string[] = [];
  const heard: SessionFrame['event'][] = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => typeof f.payload === 'string' && sent.push(f.payload));
    ws.on('framereceived', (f) => {
      if (typeof f.payload !== 'string' || !f.payload.startsWith('{"event":{"type":"session"')) return;
      heard.push((JSON.parse(f.payload) as SessionFrame).event);
    });
  });

  // The early answer is held in the browser until the server has announced a step past the open
  // it carries: a follower on its own socket hears the steps. The page subscribes only once it
  // has that answer, so the steps in between are ones it missed.
  const seen: { opened: Opened | null; follower: WebSocket | null } = { opened: null, follower: null };
  await page.route('**/api/early', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { answers: { res: Opened }[] };
    seen.opened = body.answers[0].res;
    const at = seen.opened.entryCount;
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const origin = new URL(served.url).origin;
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/api/ws`, { headers: { Cookie: cookie }, origin });
    seen.follower = ws;
    await new Promise<void>((resolve, reject) => {
      ws.on('message', (m: Buffer) => {
        const f = JSON.parse(m.toString('utf8')) as SessionFrame;
        if (f.event?.type === 'session' && (f.event.entryCount ?? 0) > at) resolve();
      });
      ws.on('error', reject);
      ws.on('open', () => ws.send(JSON.stringify({ id: 1, method: 'subscribe', req: { topic: 'session', key } })));
    });
    await route.fulfill({ response, json: body });
  });

  await served.open(page, sessionHash(key));
  const head = page.locator('.tree-head > span:first-child');
  await expect(head).toHaveText(
    `${whole.entries.toLocaleString('en-US')} entries · ${branchPoints} branch points · ${leaves} leaves`,
    { timeout: 60_000 },
  );
  await expect(page.locator(`.leaf-panes[data-leaf-id="${whole.active_leaf}"][aria-busy="false"]`)).toBeVisible({
    timeout: 60_000,
  });
  seen.follower?.close();

  // The open was answered while the read ran, taken as it was: never asked on the socket.
  const open = seen.opened;
  expect(open?.reading).not.toBeNull();
  expect(sent.filter((s) => s.includes('"method":"openSession"'))).toEqual([]);
  // So were its first rows (the page of the active leaf, asked with it: the top one while read).
  expect(sent.filter((s) => s.includes('"method":"getTreeRows"') && s.includes('"start":0,'))).toEqual([]);
  const sub = sent.find((s) => s.includes('"method":"subscribe"') && s.includes('"topic":"session"'));
  expect(sub).toContain(`"since":{"generation":${open?.generation},"entryCount":${open?.entryCount},"reading":true}`);
  // Its first event starts where that open stood; no reload was needed.
  expect(heard[0]).toMatchObject({ change: 'appended', delta: { firstNewIndex: open?.entryCount } });
  expect(heard.filter((e) => e?.change === 'reloaded')).toEqual([]);
});
