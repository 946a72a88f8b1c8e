import { mkdirSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_SLICE_BYTES } from '../../shared/api';
import { useTempDir } from '../../test-support/temp-dir';
import { ExplorerBackend } from '../api/explorer-backend';
import { MAX_BUFFERED_BYTES, MAX_IN_FLIGHT, MAX_REPLY_BYTES, STALLED_BYTES } from './api-socket';
import { createLoopbackServer, type LoopbackServer } from './loopback-server';
import { BIG_ENTRY_ID, BIG_LINE_KEY, writeBigLineHome } from './testing/big-line-home';
import { FakeBackend } from './testing/fake-backend';
import { connect, rpc } from './testing/http-helpers';

const tempDir = useTempDir('vak-limits-');
let staticDir: string;
let server: LoopbackServer | null = null;
let backend: ExplorerBackend | null = null;

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

describe('a client that stops reading (serve mode, real backend)', () => {
  it('has its requests cancelled once its unread replies pass the stall limit; the server never queues more; others are served', async () => {
    const home = join(tempDir(), 'home');
    const lineBytes = 6 * 1024 * 1024;
    writeBigLineHome(home, lineBytes);
    backend = await ExplorerBackend.create({ home, isDemo: false, label: 'big', watch: false, lockPollMs: 0 });
    server = await createLoopbackServer({ backend, port: 0, staticDir });

    const slow = await connect(server);
    const fast = await connect(server);
    const replies: { ok: boolean; error?: { code: string } }[] = [];
    slow.on('message', (d) => {
      const f = JSON.parse(String(d)) as { id?: number; ok: boolean };
      if (f.id !== undefined) replies.push(f); // (progress events come too)
    });
    // The client stops reading: nothing it was sent leaves the kernel's buffers.
    (slow as unknown as { _socket: Socket })._socket.pause();
    const requests = MAX_IN_FLIGHT - 4;
    for (let k = 0; k < requests; k++) {
      const req = {
        key: BIG_LINE_KEY,
        id: BIG_ENTRY_ID,
        maxBytes: MAX_SLICE_BYTES,
        sliceStart: (k % 3) * MAX_SLICE_BYTES,
      };
      slow.send(JSON.stringify({ id: k + 1, method: 'getEntry', req }));
    }
    // 58 replies of 2 MiB (116 MiB) would fit no buffer: the server stops working for this socket.
    await expect.poll(() => server?.stats().stalledCancelled, { timeout: 60_000 }).toBeGreaterThan(0);
    const stats = server.stats();
    expect(stats.open[0]).toMatchObject({ stalled: true, stalls: 1 });
    expect(stats.peakBufferedBytes).toBeLessThanOrEqual(MAX_BUFFERED_BYTES);
    // It did fill up past the stall limit first (the limit, not something else, stopped it).
    expect(stats.peakBufferedBytes).toBeGreaterThan(STALLED_BYTES);

    // Meanwhile another client is answered, big replies included.
    const f = rpc(fast);
    expect(await f.call('getHome', {})).toMatchObject({ ok: true });
    const page = await f.call('getEntry', { key: BIG_LINE_KEY, id: BIG_ENTRY_ID, maxBytes: MAX_SLICE_BYTES });
    expect(page).toMatchObject({ ok: true, res: { sliceStart: 0, sliceEnd: MAX_SLICE_BYTES, truncated: true } });

    // Once it reads again it gets an answer to every request: what was queued, the rest cancelled.
    (slow as unknown as { _socket: Socket })._socket.resume();
    await expect.poll(() => replies.length, { timeout: 60_000 }).toBe(requests);
    const cancelled = replies.filter((r) => r.error?.code === 'cancelled').length;
    expect(cancelled).toBeGreaterThan(0);
    expect(replies.filter((r) => r.ok).length).toBe(requests - cancelled);
    // Caught up, it is served again.
    await expect.poll(() => server?.stats().open.every((x) => !x.stalled)).toBe(true);
    expect(await rpc(slow).call('getHome', {})).toMatchObject({ ok: true });
    slow.close();
    fast.close();
  }, 120_000);
});

describe('per-socket limits (transport, fake backend)', () => {
  let fake: FakeBackend;
  beforeEach(async () => {
    fake = new FakeBackend();
    server = await createLoopbackServer({ backend: fake, port: 0, staticDir });
  });

  it(`stops reading a socket with ${MAX_IN_FLIGHT} requests in flight, and resumes as they finish`, async () => {
    if (!server) throw new Error('no server');
    const ws = await connect(server);
    const answered = new Map<number, string>();
    ws.on('message', (d) => {
      const f = JSON.parse(String(d)) as { id: number; ok: boolean; error?: { code: string } };
      answered.set(f.id, f.ok ? 'ok' : (f.error?.code ?? '?'));
    });
    const send = (id: number) => ws.send(JSON.stringify({ id, method: 'getChainItems', req: {} }));
    for (let id = 1; id <= MAX_IN_FLIGHT; id++) send(id);
    await expect.poll(() => fake.held.length).toBe(MAX_IN_FLIGHT);
    expect(server.stats().open[0]).toMatchObject({ inFlight: MAX_IN_FLIGHT, readPaused: true });
    // Sent while the server does not read: they wait in the socket, neither run nor refused.
    const total = MAX_IN_FLIGHT * 2 + 10;
    for (let id = MAX_IN_FLIGHT + 1; id <= total; id++) send(id);
    await expect
      .poll(
        () => {
          fake.release();
          return answered.size;
        },
        { timeout: 30_000 },
      )
      .toBe(total);
    expect(fake.maxHeld).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    expect([...answered.values()].filter((v) => v !== 'ok')).toEqual([]);
    expect(server.stats().open[0]).toMatchObject({ inFlight: 0, readPaused: false });
    ws.close();
  });

  it('refuses a reply over the size cap with too_large, and the socket lives on', async () => {
    if (!server) throw new Error('no server');
    const ws = await connect(server);
    const r = rpc(ws);
    fake.bigReplyChars = MAX_REPLY_BYTES;
    const big = await r.call('getProjectedMessage', {});
    expect(big).toMatchObject({ ok: false, error: { code: 'too_large', message: /ask for less/ } });
    expect(server.stats().open[0].tooLarge).toBe(1);
    fake.bigReplyChars = 1000;
    expect(await r.call('getProjectedMessage', {})).toMatchObject({ ok: true });
    ws.close();
  });
});
