/**
 * Exports bigger than one reply, end to end through serve mode's real server and backend:
 * beginExport + the streamed download delivers the whole file, exactly, in chunks no larger than
 * a reply may be.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateSession } from '../../generator';
import { EXPORT_CHUNK_CHARS, EXPORT_DOWNLOAD_PATH, type ExportStarted } from '../../shared/api-features';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { readWholeExport } from '../../test-support/read-export';
import { useTempDir } from '../../test-support/temp-dir';
import { ExplorerBackend } from '../api/explorer-backend';
import { MAX_REPLY_BYTES } from './api-socket';
import { createLoopbackServer, type LoopbackServer } from './loopback-server';
import { connect, rawRequest, rpc, signIn } from './testing/http-helpers';

const tempDir = useTempDir('vak-export-dl-');
let server: LoopbackServer | null = null;
let backend: ExplorerBackend | null = null;
let staticDir: string;

beforeEach(() => {
  staticDir = join(tempDir(), 'renderer');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>vak explorer</title>');
});

afterEach(async () => {
  await server?.close();
  await backend?.close();
  server = null;
  backend = null;
});

/** A home with one session whose HTML export is well over 8 MiB (5,000 entries of 5–12 KB tool results). */
function bigHome(): { home: string; key: string } {
  const home = join(tempDir(), 'home');
  // Any folder name: the library keys a session by its path under the home.
  const key = 'agents/vak/sessions/0000000000000000/01a22688-5a80-7d3d-a60d-53f7388101d2.jsonl';
  mkdirSync(join(home, key, '..'), { recursive: true });
  generateSession({
    seed: 21,
    entries: 6000,
    cwd: '/work/big',
    path: join(home, key),
    toolResultBytes: [5000, 12400],
    shape: 'uncompacted',
  });
  return { home, key };
}

describe('an export over 8 MiB through serve mode', () => {
  it('streams whole as a download of chunks, bigger than one reply', async () => {
    const { home, key } = bigHome();
    const b = await ExplorerBackend.create({ home, isDemo: false, label: 'big', watch: false, lockPollMs: 0 });
    backend = b;
    server = await createLoopbackServer({ backend, port: 0, staticDir });
    const ws = await connect(server);
    const api = rpc(ws);
    const req = { key, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, format: 'html' } as const;

    // The same export read whole from the backend in this process (no socket between).
    const client = { id: 'in-process', push: () => undefined };
    const want = (await readWholeExport((m, r) => b.call(m, r, client), req)).text;
    const sessionId = '01a22688-5a80-7d3d-a60d-53f7388101d2';
    expect(Buffer.byteLength(want)).toBeGreaterThan(MAX_REPLY_BYTES);

    const begun = await api.call('beginExport', req);
    expect(begun.ok).toBe(true);
    const started = (begun as { res: ExportStarted }).res;
    expect(started.fileName).toBe(`${sessionId}.html`);

    const path = `${EXPORT_DOWNLOAD_PATH}/${started.exportId}/${started.fileName}`;
    // Signed in like the API: without the cookie, nothing.
    const anonymous = await rawRequest(server.port, path);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).not.toContain('<!doctype html>\n<html');

    const cookie = await signIn(server.port, server.token);
    const got = await rawRequest(server.port, path, { Cookie: cookie });
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(got.headers['content-disposition']).toBe(`attachment; filename="${started.fileName}"`);
    expect(got.headers['transfer-encoding']).toBe('chunked');
    expect(got.body.length).toBe(want.length);
    expect(got.body === want).toBe(true);

    // Read to its end, the export is gone: the URL cannot be replayed.
    const again = await rawRequest(server.port, path, { Cookie: cookie });
    expect(again.status).toBe(404);
    ws.close();
  }, 180_000);

  it('reads a JSON export in chunks of at most EXPORT_CHUNK_CHARS over the socket, each under a reply', async () => {
    const { home, key } = bigHome();
    const b = await ExplorerBackend.create({ home, isDemo: false, label: 'big', watch: false, lockPollMs: 0 });
    backend = b;
    server = await createLoopbackServer({ backend, port: 0, staticDir });
    const ws = await connect(server);
    const api = rpc(ws);
    const req = { key, leaf: null, plan: 'none', profile: DEFAULT_PROFILE, format: 'json' } as const;
    const begun = (await api.call('beginExport', req)) as { ok: true; res: ExportStarted };
    const parts: string[] = [];
    for (;;) {
      const r = await api.call('readExport', { exportId: begun.res.exportId });
      expect(r.ok).toBe(true);
      const chunk = (r as { res: { text: string; done: boolean } }).res;
      expect(chunk.text.length).toBeLessThanOrEqual(EXPORT_CHUNK_CHARS);
      parts.push(chunk.text);
      if (chunk.done) break;
    }
    const client = { id: 'in-process', push: () => undefined };
    const whole = await readWholeExport((m, r) => b.call(m, r, client), req);
    const text = parts.join('');
    expect(parts.length).toBeGreaterThan(1);
    expect(text).toBe(whole.text);
    expect(JSON.parse(text)).toMatchObject({ leaf: expect.any(String), messages: expect.any(Array) });
    ws.close();
  }, 180_000);

  it('an unknown export id answers 404', async () => {
    const home = join(tempDir(), 'empty');
    mkdirSync(home);
    backend = await ExplorerBackend.create({ home, isDemo: false, label: 'empty', watch: false, lockPollMs: 0 });
    server = await createLoopbackServer({ backend, port: 0, staticDir });
    const cookie = await signIn(server.port, server.token);
    const r = await rawRequest(server.port, `${EXPORT_DOWNLOAD_PATH}/${'A'.repeat(24)}/x.html`, { Cookie: cookie });
    expect(r.status).toBe(404);
    expect(r.body).toMatch(/no such export/);
  });
});
