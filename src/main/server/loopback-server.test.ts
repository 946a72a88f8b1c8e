import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { earlySocketHashSource } from '../web/early-socket';
import { createLoopbackServer, MAX_PAYLOAD_BYTES, type LoopbackServer } from './loopback-server';
import { FakeBackend, LIBRARY_EVENT } from './testing/fake-backend';
import { frames, openSocket, rawRequest, signIn } from './testing/http-helpers';

let dir: string;
let staticDir: string;
let backend: FakeBackend;
let server: LoopbackServer;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vak-loopback-'));
  staticDir = join(dir, 'renderer');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>vak explorer</title><div id="root"></div>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(staticDir, 'assets', 'app.css'), 'body{}');
  writeFileSync(join(dir, 'secret.txt'), 'TOP SECRET');
  backend = new FakeBackend();
  server = await createLoopbackServer({ backend, port: 0, staticDir });
});

afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('binding and the printed URL', () => {
  it('listens on 127.0.0.1 with a 32-byte token in the URL', () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(server.token, 'base64url')).toHaveLength(32);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
  });

  it('refuses to bind anything but loopback', async () => {
    await expect(createLoopbackServer({ backend, port: 0, staticDir, host: '0.0.0.0' as '127.0.0.1' })).rejects.toThrow(
      /loopback only/,
    );
  });
});

describe('token → cookie', () => {
  it('refuses the API without a token or cookie (401)', async () => {
    expect((await openSocket(server.port)).status).toBe(401);
    const page = await rawRequest(server.port, '/');
    expect(page.status).toBe(401);
    expect(page.body).toContain('URL printed in the terminal');
  });

  it('refuses a wrong token and sets no cookie', async () => {
    const r = await rawRequest(server.port, '/?token=' + 'A'.repeat(43));
    expect(r.status).toBe(401);
    expect(r.headers['set-cookie']).toBeUndefined();
    expect((await openSocket(server.port, { cookie: `vak_explorer_${server.port}=${'A'.repeat(43)}` })).status).toBe(
      401,
    );
  });

  it('exchanges the token for an HttpOnly SameSite=Strict cookie and redirects to the URL without it', async () => {
    const r = await rawRequest(server.port, `/?token=${server.token}`);
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/');
    const cookie = r.headers['set-cookie']![0];
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toContain(server.token);
  });

  it('accepts the WebSocket with the cookie and answers a request', async () => {
    const cookie = await signIn(server.port, server.token);
    const { ws } = await openSocket(server.port, { cookie });
    const f = frames(ws!);
    ws!.send(JSON.stringify({ id: 1, method: 'getHome', req: {} }));
    expect(await f.next()).toEqual({ id: 1, ok: true, res: { home: '/fake/home', isDemo: false, label: 'fake home' } });
    expect(backend.calls[0]).toMatchObject({ method: 'getHome', req: {} });
    ws!.close();
  });

  it('serves the renderer with the cookie, with CSP and content types', async () => {
    const cookie = await signIn(server.port, server.token);
    const index = await rawRequest(server.port, '/', { Cookie: cookie });
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.body).toContain('vak explorer');
    const csp = String(index.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    // Our bundle, and the one inline script (the early socket) by its hash: nothing else inline.
    expect(csp).toContain(`script-src 'self' ${earlySocketHashSource()};`);
    expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${server.port}`);
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    const js = await rawRequest(server.port, '/assets/app.js', { Cookie: cookie });
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const css = await rawRequest(server.port, '/assets/app.css', { Cookie: cookie });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('falls back to index.html for app routes, 404 for missing files', async () => {
    const cookie = await signIn(server.port, server.token);
    expect((await rawRequest(server.port, '/session/abc', { Cookie: cookie })).body).toContain('vak explorer');
    expect((await rawRequest(server.port, '/assets/missing.js', { Cookie: cookie })).status).toBe(404);
  });

  it('honours a one-time URL exactly once', async () => {
    const url = new URL(server.oneTimeUrl());
    const path = url.pathname + url.search;
    expect(url.searchParams.get('token')).not.toBe(server.token);
    expect((await rawRequest(server.port, path)).status).toBe(303);
    expect((await rawRequest(server.port, path)).status).toBe(401);
  });

  it('bounces a cross-site navigation through a same-origin page (SameSite=Strict held the cookie back)', async () => {
    const hop = await rawRequest(server.port, '/', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' });
    expect(hop.status).toBe(200);
    expect(hop.body).toContain('http-equiv="refresh"');
    const again = await rawRequest(server.port, '/?hop', {
      'Sec-Fetch-Site': 'cross-site',
      'Sec-Fetch-Mode': 'navigate',
    });
    expect(again.status).toBe(401);
  });

  it('refuses other methods', async () => {
    const cookie = await signIn(server.port, server.token);
    expect((await rawRequest(server.port, '/', { Cookie: cookie }, 'POST')).status).toBe(405);
  });
});

describe('Host header (DNS rebinding)', () => {
  it('refuses a foreign Host for pages, the token exchange and the socket', async () => {
    const cookie = await signIn(server.port, server.token);
    const evil = `evil.example:${server.port}`;
    expect((await rawRequest(server.port, '/', { Host: evil, Cookie: cookie })).status).toBe(421);
    const exchange = await rawRequest(server.port, `/?token=${server.token}`, { Host: evil });
    expect(exchange.status).toBe(421);
    expect(exchange.headers['set-cookie']).toBeUndefined();
    expect((await openSocket(server.port, { cookie, host: evil, origin: `http://${evil}` })).status).toBe(421);
  });

  it('refuses our names on another port', async () => {
    const cookie = await signIn(server.port, server.token);
    expect((await rawRequest(server.port, '/', { Host: '127.0.0.1:1', Cookie: cookie })).status).toBe(421);
    expect((await rawRequest(server.port, '/', { Host: '127.0.0.1', Cookie: cookie })).status).toBe(421);
  });

  it.each(['127.0.0.1', 'localhost', '[::1]'])('accepts %s on our port', async (name) => {
    const cookie = await signIn(server.port, server.token);
    const host = `${name}:${server.port}`;
    expect((await rawRequest(server.port, '/', { Host: host, Cookie: cookie })).status).toBe(200);
    const { ws } = await openSocket(server.port, { cookie, host });
    expect(ws).toBeDefined();
    ws!.close();
  });
});

describe('Origin of the WebSocket upgrade', () => {
  it.each([
    ['another site', 'http://evil.example'],
    ['another site on our port', 'http://evil.example:PORT'],
    ['our host on another port', 'http://127.0.0.1:1'],
    ['https instead of http', 'https://127.0.0.1:PORT'],
    ['an opaque origin', 'null'],
    ['a path or trailing slash', 'http://127.0.0.1:PORT/'],
    ['a userinfo trick', 'http://127.0.0.1:PORT@evil.example'],
    ['a suffix', 'http://127.0.0.1:PORT.evil.example'],
  ])('refuses %s', async (_name, origin) => {
    const cookie = await signIn(server.port, server.token);
    const r = await openSocket(server.port, { cookie, origin: origin.replace('PORT', String(server.port)) });
    expect(r.status).toBe(403);
  });

  it.each(['127.0.0.1', 'localhost', '[::1]'])('accepts the origin http://%s:PORT', async (name) => {
    const cookie = await signIn(server.port, server.token);
    const { ws } = await openSocket(server.port, { cookie, origin: `http://${name}:${server.port}` });
    expect(ws).toBeDefined();
    ws!.close();
  });

  it('refuses an upgrade without Origin', async () => {
    const cookie = await signIn(server.port, server.token);
    expect((await openSocket(server.port, { cookie, origin: null })).status).toBe(403);
  });

  it('refuses an upgrade on another path', async () => {
    const cookie = await signIn(server.port, server.token);
    expect((await openSocket(server.port, { cookie, path: '/other' })).status).toBe(404);
  });
});

describe('frames', () => {
  async function connected() {
    const cookie = await signIn(server.port, server.token);
    const { ws } = await openSocket(server.port, { cookie });
    return { ws: ws!, f: frames(ws!) };
  }

  it('answers malformed frames with errors and keeps the connection', async () => {
    const { ws, f } = await connected();
    ws.send('not json');
    expect(await f.next()).toMatchObject({ id: -1, ok: false, error: { code: 'bad_request' } });
    ws.send(JSON.stringify({ id: 'x', method: 'getHome', req: {} }));
    expect(await f.next()).toMatchObject({ id: -1, ok: false, error: { code: 'bad_request' } });
    ws.send(JSON.stringify({ id: 7, method: 'rm -rf', req: {} }));
    expect(await f.next()).toMatchObject({
      id: 7,
      ok: false,
      error: { code: 'bad_request', message: /unknown method/ },
    });
    ws.send(JSON.stringify({ id: 8, req: {} }));
    expect(await f.next()).toMatchObject({ id: 8, ok: false, error: { code: 'bad_request' } });
    ws.send(JSON.stringify([1, 2, 3]));
    expect(await f.next()).toMatchObject({ id: -1, ok: false });
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await f.next()).toMatchObject({ id: -1, ok: false, error: { message: /binary/ } });
    ws.send(JSON.stringify({ id: 9, method: 'getHome', req: {} }));
    expect(await f.next()).toMatchObject({ id: 9, ok: true });
    ws.close();
  });

  it('passes backend errors through as payloads', async () => {
    const { ws, f } = await connected();
    ws.send(JSON.stringify({ id: 1, method: 'openSession', req: { key: 'x' } }));
    expect(await f.next()).toEqual({ id: 1, ok: false, error: { code: 'not_found', message: 'no such session' } });
    ws.send(JSON.stringify({ id: 2, method: 'getWarnings', req: {} }));
    expect(await f.next()).toEqual({ id: 2, ok: false, error: { code: 'internal', message: 'boom' } });
    ws.close();
  });

  it('closes a socket that sends more than the payload limit, and the server lives on', async () => {
    const { ws } = await connected();
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.on('error', () => {});
    ws.send('x'.repeat(MAX_PAYLOAD_BYTES + 1));
    expect(await closed).toBe(1009);
    const again = await connected();
    again.ws.send(JSON.stringify({ id: 1, method: 'getHome', req: {} }));
    expect(await again.f.next()).toMatchObject({ id: 1, ok: true });
    again.ws.close();
  });

  it('pushes events as {event}', async () => {
    const { ws, f } = await connected();
    ws.send(JSON.stringify({ id: 1, method: 'subscribe', req: { topic: 'library' } }));
    expect(await f.next()).toMatchObject({ id: 1, ok: true });
    backend.pushAll(LIBRARY_EVENT);
    expect(await f.next()).toEqual({ event: LIBRARY_EVENT });
    ws.close();
  });

  it('tells the backend when a client goes away', async () => {
    const { ws, f } = await connected();
    ws.send(JSON.stringify({ id: 1, method: 'getHome', req: {} }));
    await f.next();
    const id = backend.calls[0].client.id;
    ws.close();
    await expect.poll(() => backend.disconnected).toContain(id);
  });
});

describe('static paths', () => {
  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/..%5csecret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/assets/%00.js',
    '/%E0%A4%A',
  ])('refuses %s', async (path) => {
    const cookie = await signIn(server.port, server.token);
    const r = await rawRequest(server.port, path, { Cookie: cookie });
    expect([400, 403]).toContain(r.status);
    expect(r.body).not.toContain('TOP SECRET');
  });

  it('refuses an absolute-form request target', async () => {
    const cookie = await signIn(server.port, server.token);
    const r = await rawRequest(server.port, `http://127.0.0.1:${server.port}/`, { Cookie: cookie });
    expect(r.status).toBe(400);
  });
});
