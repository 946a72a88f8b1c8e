import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateSession } from '../../generator';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { useTempDir } from '../../test-support/temp-dir';
import { WorkerBackend } from '../worker/worker-backend';
import { createLoopbackServer, type LoopbackServer } from './loopback-server';
import { connect, type ReplyFrame } from './testing/http-helpers';

const tempDir = useTempDir('vak-socket-cancel-');
const CWD = '/home/ana/projects/cancel';
let server: LoopbackServer | null = null;
let backend: WorkerBackend | null = null;

afterEach(async () => {
  await server?.close();
  await backend?.close();
  server = null;
  backend = null;
});

describe('{cancel: id} over the serve-mode socket (real worker)', () => {
  it('answers the cancelled request with code cancelled at once, and the worker drops or stops it', async () => {
    const root = tempDir();
    const staticDir = join(root, 'renderer');
    mkdirSync(staticDir);
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>vak explorer</title>');
    const home = join(root, 'home');
    const g = generateSession({ seed: 31, entries: 20_000, cwd: CWD, shape: 'uncompacted' });
    // Any 16 hex digits name the folder: a cwd mismatch is a warning, and this test reads no warning.
    const key = `agents/vak/sessions/0123456789abcdef/${g.sessionId}.jsonl`;
    mkdirSync(join(home, key, '..'), { recursive: true });
    appendFileSync(join(home, key), g.bytes);
    backend = await WorkerBackend.create({ home, isDemo: false, label: 'test', watch: false, lockPollMs: 0 });
    server = await createLoopbackServer({ backend, port: 0, staticDir });
    const ws = await connect(server);
    const replies = new Map<number, ReplyFrame>();
    ws.on('message', (d) => {
      const f = JSON.parse(String(d)) as ReplyFrame | { event: unknown };
      if ('id' in f) replies.set(f.id, f);
    });
    const before = await backend.stats();
    const req = { key, leaf: null, plan: 'none', profile: DEFAULT_PROFILE, overrides: {}, pagedMessages: true };
    // The first call opens 20,000 entries and projects them; the second is superseded at once.
    ws.send(JSON.stringify({ id: 1, method: 'getLeafView', req }));
    ws.send(JSON.stringify({ id: 2, method: 'getLeafView', req: { ...req, plan: 'auto' } }));
    ws.send(JSON.stringify({ cancel: 2 }));
    await expect.poll(() => replies.get(2), { timeout: 60_000 }).toBeDefined();
    expect(replies.get(2)).toMatchObject({ id: 2, ok: false, error: { code: 'cancelled' } });
    await expect.poll(() => replies.get(1), { timeout: 60_000 }).toBeDefined();
    expect(replies.get(1)).toMatchObject({ id: 1, ok: true });
    const after = await backend.stats();
    // The superseded call never reached the worker, was dropped there unrun, or stopped:
    // the worker did the first call's work only.
    const ranToTheEnd = after.callsRun - before.callsRun - (after.callsEndedCancelled - before.callsEndedCancelled);
    expect(ranToTheEnd).toBe(1);
    // A cancel for an unknown id is ignored; the connection keeps serving.
    ws.send(JSON.stringify({ cancel: 99 }));
    ws.send(JSON.stringify({ id: 3, method: 'getHome', req: {} }));
    await expect.poll(() => replies.get(3), { timeout: 10_000 }).toMatchObject({ ok: true });
    expect(server.stats().open[0].cancelled).toBe(1);
    ws.close();
  }, 120_000);
});
