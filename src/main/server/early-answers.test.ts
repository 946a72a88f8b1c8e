/**
 * Serve mode's early answers route (`POST /api/early`) against the real serve process: the
 * socket's checks (cookie, Origin, Host, size), read-only methods only, the API's validation, and
 * a subscription told what changed after an early answer (`since`).
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiReply, SessionInfo } from '../../shared/api';
import { EARLY_ANSWERS_PATH, MAX_EARLY_BODY_BYTES } from '../../shared/api-early';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { generateSession } from '../../generator';
import { FIRST_READ_BYTES } from '../api/backend-options';
import { FIXTURES } from '../../test-support/fixtures';
import { startServeChild, type ServeChild } from '../../test-support/serve-child-process';
import { useTempDir } from '../../test-support/temp-dir';
import { frames, openSocket, rpc, signIn, type RawResponse } from './testing/http-helpers';

const DIR = 'agents/vak/sessions/0000000000000000';
const KEY = `${DIR}/01a22688-5a80-7d3d-a60d-53f7388101d1.jsonl`;
const LAST_ID = 'e0021';

const tempDir = useTempDir('vak-early-answers-');
let serve: ServeChild | null = null;

afterEach(() => {
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
  serve = null;
});

async function started(big?: {
  key: string;
  bytes: Buffer;
}): Promise<{ s: ServeChild; cookie: string; origin: string }> {
  const home = join(tempDir(), 'home');
  mkdirSync(join(home, DIR), { recursive: true });
  copyFileSync(join(FIXTURES, 'linear.jsonl'), join(home, KEY));
  if (big) {
    mkdirSync(join(home, big.key, '..'), { recursive: true });
    writeFileSync(join(home, big.key), big.bytes);
  }
  const s = await startServeChild(home);
  serve = s;
  return { s, cookie: await signIn(s.port, s.token), origin: `http://127.0.0.1:${s.port}` };
}

/** A POST with the body as given and the headers of our choosing. */
function post(
  port: number,
  body: string,
  headers: Record<string, string>,
  path = EARLY_ANSWERS_PATH,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { Host: `127.0.0.1:${port}`, 'Content-Type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const asks = (...a: { method: string; req: unknown }[]): string => JSON.stringify({ asks: a });
const open = { method: 'openSession', req: { key: KEY } };

describe('the early answers route', () => {
  it('answers the read-only asks in one response, in order, each as the socket would', async () => {
    const { s, cookie, origin } = await started();
    const r = await post(
      s.port,
      asks(
        open,
        { method: 'getTreeRows', req: { key: KEY, start: 0, count: 4, foldAudit: false } },
        { method: 'findRow', req: { key: KEY, id: LAST_ID, foldAudit: false } },
        {
          method: 'getLeafView',
          req: {
            key: KEY,
            leaf: 'no-such-entry',
            plan: 'auto',
            profile: { window: 1, reserve: 0, bytes_per_token: 4 },
            overrides: {},
          },
        },
      ),
      { Cookie: cookie, Origin: origin },
    );
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.headers['cache-control']).toBe('no-store');
    const { answers } = JSON.parse(r.body) as { answers: ApiReply[] };
    expect(answers).toHaveLength(4);
    const [info, rows, found, view] = answers;
    expect(info.ok && (info.res as SessionInfo).key).toBe(KEY);
    expect(rows.ok && (rows.res as { rows: unknown[] }).rows).toHaveLength(4);
    expect(found).toMatchObject({ ok: true, res: { row: expect.any(Number) } });
    // An error is that ask's answer; the others stand.
    expect(view).toMatchObject({ ok: false, error: { code: expect.any(String) } });
  });

  it('validates each request as the socket does (the API schemas)', async () => {
    const { s, cookie, origin } = await started();
    const r = await post(s.port, asks({ method: 'getTreeRows', req: { key: KEY, start: -1, count: 4 } }), {
      Cookie: cookie,
      Origin: origin,
    });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ answers: [{ ok: false, error: { code: 'bad_request' } }] });
  });

  it('refuses without the session cookie, from another origin or none, and for another Host', async () => {
    const { s, cookie, origin } = await started();
    expect((await post(s.port, asks(open), { Origin: origin })).status).toBe(401);
    expect((await post(s.port, asks(open), { Cookie: cookie, Origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(s.port, asks(open), { Cookie: cookie, Origin: `http://127.0.0.1:${s.port + 1}` })).status).toBe(
      403,
    );
    expect((await post(s.port, asks(open), { Cookie: cookie })).status).toBe(403);
    expect((await post(s.port, asks(open), { Cookie: cookie, Origin: origin, Host: 'evil.example' })).status).toBe(421);
    // A token in the query signs nothing in here.
    expect((await post(s.port, asks(open), { Origin: origin }, `${EARLY_ANSWERS_PATH}?token=${s.token}`)).status).toBe(
      401,
    );
    // Not a simple form post: JSON only.
    expect(
      (await post(s.port, asks(open), { Cookie: cookie, Origin: origin, 'Content-Type': 'text/plain' })).status,
    ).toBe(415);
  });

  it('refuses a write, a subscription, an unknown method, too many asks and a body over the limit, before running any', async () => {
    const { s, cookie, origin } = await started();
    const h = { Cookie: cookie, Origin: origin };
    const branch = { method: 'branch', req: { key: KEY, parentId: LAST_ID, text: 'x', idempotencyKey: randomUUID() } };
    for (const body of [
      asks(open, branch),
      asks({ method: 'subscribe', req: { topic: 'session', key: KEY } }),
      asks({ method: 'getHome', req: {} }),
      asks({ method: 'noSuchMethod', req: {} }),
      asks(open, open),
      asks(),
      '{"asks":',
    ]) {
      const r = await post(s.port, body, h);
      expect(r.status, body).toBe(400);
    }
    expect((await post(s.port, 'x'.repeat(MAX_EARLY_BODY_BYTES + 1), h)).status).toBe(413);
    // The branch above never ran: the session still ends at its last entry.
    const r = await post(s.port, asks(open), h);
    const info = (JSON.parse(r.body) as { answers: { res: SessionInfo }[] }).answers[0].res;
    expect(info.activeLeaf).toBe(LAST_ID);
  });

  it('GET is not answered there', async () => {
    const { s, cookie } = await started();
    const r = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: s.port,
          path: EARLY_ANSWERS_PATH,
          headers: { Host: `127.0.0.1:${s.port}`, Cookie: cookie },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(r).toBe(405);
  });
});

describe('a subscription after an early answer', () => {
  it('is told at once of an append that landed after the early answer, and of nothing when none did', async () => {
    const { s, cookie, origin } = await started();
    const r = await post(s.port, asks(open), { Cookie: cookie, Origin: origin });
    const before = (JSON.parse(r.body) as { answers: { res: SessionInfo }[] }).answers[0].res;
    const since = { generation: before.generation, entryCount: before.entryCount, reading: false };

    const ws = (await openSocket(s.port, { cookie })).ws!;
    const events = frames(ws);
    const api = rpc(ws);
    // Unchanged: the subscription is answered and nothing is pushed before that answer.
    expect(await api.call('subscribe', { topic: 'session', key: KEY, since })).toMatchObject({ ok: true });
    expect(await events.next()).toMatchObject({ ok: true, res: { subscription: expect.any(String) } });

    // Another client appends between the early answer and a second page's subscription.
    const writer = (await openSocket(s.port, { cookie })).ws!;
    const w = rpc(writer);
    expect(
      await w.call('branch', { key: KEY, parentId: LAST_ID, text: 'late', idempotencyKey: randomUUID() }),
    ).toMatchObject({ ok: true });
    const late = (await openSocket(s.port, { cookie })).ws!;
    const lateEvents = frames(late);
    expect(await rpc(late).call('subscribe', { topic: 'session', key: KEY, since })).toMatchObject({ ok: true });
    const first = await lateEvents.next();
    expect(first).toMatchObject({
      event: { type: 'session', key: KEY, change: 'reloaded', entryCount: before.entryCount + 1 },
    });
    for (const x of [ws, writer, late]) x.close();
  });

  it('answers the open and rows of a session not read yet, and leaves what waits for its read to the socket', async () => {
    // Big enough to be read in steps: the open answers after the first, the rest follows.
    const g = generateSession({ seed: 7, bytes: 3 * FIRST_READ_BYTES, cwd: '/work/app' });
    const key = `${DIR}/${g.sessionId}.jsonl`;
    const { s, cookie, origin } = await started({ key, bytes: g.bytes });
    const leafView = {
      method: 'getLeafView',
      req: { key, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, overrides: {}, pagedMessages: true },
    };
    const bigAsks = asks(
      { method: 'openSession', req: { key } },
      { method: 'findRow', req: { key, id: 'no-such-entry', foldAudit: false } },
      { method: 'getTreeRows', req: { key, start: 0, count: 4, foldAudit: false } },
      leafView,
    );
    const first = await post(s.port, bigAsks, { Cookie: cookie, Origin: origin });
    expect(first.status).toBe(200);
    const [opened, row, rows, view] = (JSON.parse(first.body) as { answers: ApiReply[] }).answers;
    expect(opened).toMatchObject({ ok: true, res: { reading: { bytesTotal: g.bytes.length } } });
    expect(rows).toMatchObject({ ok: true, res: { rows: expect.arrayContaining([expect.anything()]) } });
    for (const refused of [row, view]) expect(refused).toMatchObject({ ok: false, error: { code: 'refused' } });

    // Asked on a socket, as the page then does, the leaf view waits for the read's end and is answered.
    const ws = (await openSocket(s.port, { cookie })).ws!;
    expect(await rpc(ws).call('getLeafView', leafView.req)).toMatchObject({ ok: true });
    ws.close();
    // Read whole now: the same post is answered in full.
    const again = JSON.parse((await post(s.port, bigAsks, { Cookie: cookie, Origin: origin })).body) as {
      answers: ApiReply[];
    };
    expect(again.answers[0]).toMatchObject({ ok: true, res: { reading: null } });
    expect(again.answers[1]).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(again.answers[3]).toMatchObject({ ok: true });
  }, 60_000);
});
