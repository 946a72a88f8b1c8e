import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { generateSession } from '../../generator';
import { MAX_SLICE_BYTES } from '../../shared/api';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { useTempDir } from '../../test-support/temp-dir';
import { WorkerBackend } from '../worker/worker-backend';
import { STALLED_REASON } from './api-socket';
import { createLoopbackServer, type LoopbackServer } from './loopback-server';
import { BIG_ENTRY_ID, BIG_LINE_KEY, writeBigLineHome } from './testing/big-line-home';
import { connect, type ReplyFrame } from './testing/http-helpers';

const tempDir = useTempDir('vak-stalled-');
let server: LoopbackServer | null = null;
let backend: WorkerBackend | null = null;

afterEach(async () => {
  await server?.close();
  await backend?.close();
  server = null;
  backend = null;
});

const STALLED_CLIENTS = 8;
/** Per stalled client: big slices first (its unread replies pile up), then costly projections. */
const SLICES = 14;
const PROJECTIONS = 40;

describe('clients that stop reading (serve mode, real worker)', () => {
  it(`${STALLED_CLIENTS} of them: their work is cancelled where it runs, and another client's leaf view answers`, async () => {
    const root = tempDir();
    const staticDir = join(root, 'renderer');
    mkdirSync(staticDir);
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>vak explorer</title>');
    const home = join(root, 'home');
    writeBigLineHome(home, 6 * 1024 * 1024);
    const g = generateSession({ seed: 41, entries: 20_000, cwd: '/w', shape: 'uncompacted' });
    const key = `agents/vak/sessions/0123456789abcdef/${g.sessionId}.jsonl`;
    mkdirSync(join(home, key, '..'), { recursive: true });
    appendFileSync(join(home, key), g.bytes);
    backend = await WorkerBackend.create({
      home,
      isDemo: false,
      label: 'test',
      watch: false,
      lockPollMs: 0,
      firstReadBytes: Infinity,
    });
    server = await createLoopbackServer({ backend, port: 0, staticDir });

    // The normal client opens the session first (its first read is no one else's cost).
    const normal = await connect(server);
    const answers = new Map<number, ReplyFrame>();
    normal.on('message', (d) => {
      const f = JSON.parse(String(d)) as ReplyFrame | { event: unknown };
      if ('id' in f) answers.set(f.id, f);
    });
    normal.send(JSON.stringify({ id: 1, method: 'openSession', req: { key } }));
    await expect.poll(() => answers.get(1), { timeout: 60_000 }).toMatchObject({ ok: true });
    const before = await backend.stats();

    const stalled: WebSocket[] = [];
    for (let c = 0; c < STALLED_CLIENTS; c++) {
      const ws = await connect(server);
      // It never reads: what it is sent stays in the kernel's buffers, then in the server's.
      (ws as unknown as { _socket: Socket })._socket.pause();
      let id = 1;
      for (let k = 0; k < SLICES; k++) {
        const req = {
          key: BIG_LINE_KEY,
          id: BIG_ENTRY_ID,
          maxBytes: MAX_SLICE_BYTES,
          sliceStart: (k % 3) * MAX_SLICE_BYTES,
        };
        ws.send(JSON.stringify({ id: id++, method: 'getEntry', req }));
      }
      for (let k = 0; k < PROJECTIONS; k++) {
        // Each at another bytes_per_token: no plan is cached for the next.
        const profile = { ...DEFAULT_PROFILE, bytes_per_token: 2 + c * PROJECTIONS + k };
        const req = { key, leaf: null, plan: 'none', profile, overrides: {}, pagedMessages: true };
        ws.send(JSON.stringify({ id: id++, method: 'getLeafView', req }));
      }
      stalled.push(ws);
    }
    const asked = STALLED_CLIENTS * (SLICES + PROJECTIONS);

    // The normal client's leaf view, asked while the others hammer.
    const req = { key, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, overrides: {}, pagedMessages: true };
    normal.send(JSON.stringify({ id: 2, method: 'getLeafView', req }));
    await expect.poll(() => answers.get(2), { timeout: 120_000, interval: 50 }).toBeDefined();
    expect(answers.get(2)).toMatchObject({ ok: true, res: { leaf: expect.any(String) } });
    const answeredAt = await backend.stats();
    // It did not wait for the others' work: most of what they asked had not run when it answered.
    expect(answeredAt.callsRun - before.callsRun).toBeLessThan(asked / 2);

    // Every stalled client was seen not to read, and what it asked was cancelled, not run.
    await expect
      .poll(() => server?.stats().open.filter((s) => s.stalls > 0).length, { timeout: 120_000 })
      .toBe(STALLED_CLIENTS);
    const stats = server.stats();
    expect(stats.stalledCancelled).toBeGreaterThan(STALLED_CLIENTS * PROJECTIONS * 0.5);
    const after = await backend.stats();
    const notRunToTheEnd =
      after.callsDroppedUnrun - before.callsDroppedUnrun + (after.callsEndedCancelled - before.callsEndedCancelled);
    expect(notRunToTheEnd).toBeGreaterThan(STALLED_CLIENTS * PROJECTIONS * 0.5);
    expect(STALLED_REASON).toMatch(/stopped reading/);

    // The normal client is still served while the stalled ones stay connected.
    normal.send(JSON.stringify({ id: 3, method: 'getHome', req: {} }));
    await expect.poll(() => answers.get(3), { timeout: 30_000 }).toMatchObject({ ok: true });
    for (const ws of stalled) ws.terminate();
    normal.close();
  }, 300_000);
});
