import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_GENERATION, type ApiEvent } from '../../shared/api';
import { ApiError } from './api-methods';
import { createWsApi } from './ws-client';

class FakeSocket {
  static all: FakeSocket[] = [];
  sent: { id: number; method: string; req: unknown; cancel?: number }[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  readyState = 0;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(s: string) {
    this.sent.push(JSON.parse(s));
  }
  answer(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

const make = (timeoutMs = 1000) => {
  FakeSocket.all = [];
  return createWsApi('ws://x/api/ws', { timeoutMs, createSocket: (u) => new FakeSocket(u) as unknown as WebSocket });
};

const KEY = '0b7c9a52-52a1-4c3e-9a43-1f6d7f1f2b8e';

afterEach(() => vi.useRealTimers());

describe('WebSocket Api client', () => {
  it('queues until open, matches answers by id, maps errors', async () => {
    const api = make();
    const home = api.getHome({});
    const s = FakeSocket.all[0];
    expect(s.sent).toHaveLength(0);
    s.onopen?.();
    expect(s.sent[0]).toMatchObject({ method: 'getHome', req: {} });
    s.answer({ id: s.sent[0].id, ok: true, res: { home: '/h', isDemo: false, label: 'h' } });
    await expect(home).resolves.toEqual({ home: '/h', isDemo: false, label: 'h' });
    const br = api.branch({ key: 'k', parentId: 'p', text: 't', idempotencyKey: KEY });
    s.answer({ id: s.sent[1].id, ok: false, error: { code: 'locked', message: 'held' } });
    await expect(br).rejects.toBeInstanceOf(ApiError);
  });

  it('adopts a socket the page opened early: open already, a request leaves in the caller’s task', async () => {
    FakeSocket.all = [];
    const first = new FakeSocket('ws://x/api/ws');
    first.readyState = 1;
    const api = createWsApi('ws://x/api/ws', {
      first: first as unknown as WebSocket,
      createSocket: (u) => new FakeSocket(u) as unknown as WebSocket,
    });
    const home = api.getHome({});
    expect(FakeSocket.all).toHaveLength(1);
    expect(first.sent[0]).toMatchObject({ method: 'getHome' });
    first.answer({ id: first.sent[0].id, ok: true, res: { home: '/h', isDemo: false, label: 'h' } });
    await expect(home).resolves.toMatchObject({ home: '/h' });
  });

  it('adopts an early socket still connecting, and makes a new one once it closes', () => {
    vi.useFakeTimers();
    FakeSocket.all = [];
    const first = new FakeSocket('ws://x/api/ws');
    const api = createWsApi('ws://x/api/ws', {
      first: first as unknown as WebSocket,
      createSocket: (u) => new FakeSocket(u) as unknown as WebSocket,
    });
    void api.getHome({});
    expect(first.sent).toHaveLength(0);
    first.onopen?.();
    expect(first.sent).toHaveLength(1);
    first.onclose?.();
    vi.advanceTimersByTime(300);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1].onopen?.();
    expect(FakeSocket.all[1].sent[0]).toMatchObject({ method: 'getHome' });
  });

  it('an aborted call rejects at once with cancelled; one on the wire is cancelled on the server too', async () => {
    const api = make();
    const early = new AbortController();
    const queued = api.getHome({}, { signal: early.signal });
    early.abort(); // before the socket opened: never sent
    await expect(queued).rejects.toMatchObject({ code: 'cancelled' });
    const s = FakeSocket.all[0];
    s.onopen?.();
    expect(s.sent).toHaveLength(0);
    const ctl = new AbortController();
    const sent = api.listSessions({}, { signal: ctl.signal });
    expect(s.sent).toHaveLength(1);
    ctl.abort();
    await expect(sent).rejects.toMatchObject({ code: 'cancelled' });
    expect(s.sent[1]).toEqual({ cancel: s.sent[0].id });
    // A late answer to the cancelled id is ignored; an already aborted signal never sends.
    s.answer({ id: s.sent[0].id, ok: true, res: [] });
    await expect(api.getHome({}, { signal: ctl.signal })).rejects.toMatchObject({ code: 'cancelled' });
    expect(s.sent).toHaveLength(2);
  });

  it('dispatches pushed events and times requests out', async () => {
    vi.useFakeTimers();
    const api = make(500);
    const got: ApiEvent[] = [];
    api.onEvent((e) => got.push(e));
    const s = FakeSocket.all[0];
    s.onopen?.();
    s.answer({ event: { type: 'progress', key: 'k', bytesRead: 1, bytesTotal: 2 } });
    expect(got).toHaveLength(1);
    const p = api.listSessions({});
    vi.advanceTimersByTime(600);
    await expect(p).rejects.toThrow(/no answer within/);
  });

  it('reconnects with backoff, resends and renews subscriptions', async () => {
    vi.useFakeTimers();
    const api = make(60_000);
    const s1 = FakeSocket.all[0];
    s1.onopen?.();
    const sub = api.subscribe({ topic: 'library' });
    s1.answer({ id: s1.sent[0].id, ok: true, res: { subscription: 'srv-1' } });
    const local = await sub;
    const pending = api.listSessions({});
    s1.onclose?.();
    vi.advanceTimersByTime(300);
    const s2 = FakeSocket.all[1];
    expect(s2).toBeTruthy();
    s2.onopen?.();
    const methods = s2.sent.map((f) => f.method);
    expect(methods).toContain('listSessions');
    expect(methods).toContain('subscribe');
    const ls = s2.sent.find((f) => f.method === 'listSessions')!;
    s2.answer({ id: ls.id, ok: true, res: [] });
    await expect(pending).resolves.toEqual([]);
    const re = s2.sent.find((f) => f.method === 'subscribe')!;
    s2.answer({ id: re.id, ok: true, res: { subscription: 'srv-2' } });
    await Promise.resolve();
    void api.unsubscribe(local);
    await Promise.resolve();
    expect(s2.sent.at(-1)).toMatchObject({ method: 'unsubscribe', req: { subscription: 'srv-2' } });
  });

  it('renews a subscription that named its open (since) naming no reading: it is told what it missed as a reload', async () => {
    vi.useFakeTimers();
    const api = make(60_000);
    const s1 = FakeSocket.all[0];
    s1.onopen?.();
    const since = { generation: 7, entryCount: 5, reading: true };
    const sub = api.subscribe({ topic: 'session', key: 'k', since });
    expect(s1.sent[0]).toMatchObject({ method: 'subscribe', req: { since } });
    s1.answer({ id: s1.sent[0].id, ok: true, res: { subscription: 'srv-1' } });
    await sub;
    s1.onclose?.();
    vi.advanceTimersByTime(300);
    const s2 = FakeSocket.all[1];
    s2.onopen?.();
    expect(s2.sent.find((f) => f.method === 'subscribe')).toMatchObject({
      req: { topic: 'session', key: 'k', since: { ...since, generation: NO_GENERATION } },
    });
  });

  it('never sends a write twice: after a reconnect reads go again, a branch fails as unknown_outcome', async () => {
    vi.useFakeTimers();
    const api = make(60_000);
    const s1 = FakeSocket.all[0];
    s1.onopen?.();
    const read = api.listSessions({});
    const write = api.branch({ key: 'k', parentId: 'p', text: 'once', idempotencyKey: KEY });
    const outcome = write.catch((e: unknown) => e);
    expect(s1.sent.map((f) => f.method)).toEqual(['listSessions', 'branch']);
    s1.onclose?.();
    const e = await outcome;
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('unknown_outcome');
    expect((e as ApiError).message).toMatch(/may or may not have been appended — look at the tree/);
    vi.advanceTimersByTime(300);
    const s2 = FakeSocket.all[1];
    s2.onopen?.();
    expect(s2.sent.map((f) => f.method)).toEqual(['listSessions']);
    s2.answer({ id: s2.sent[0].id, ok: true, res: [] });
    await expect(read).resolves.toEqual([]);
    // A late answer to the lost branch (the old id) changes nothing.
    s2.answer({ id: s1.sent[1].id, ok: true, res: { id: 'x' } });
    expect(s2.sent.some((f) => f.method === 'branch')).toBe(false);
  });

  it('sends a write queued while disconnected once the socket opens (it never left)', async () => {
    const api = make();
    const write = api.branch({ key: 'k', parentId: 'p', text: 'queued', idempotencyKey: KEY });
    const s = FakeSocket.all[0];
    expect(s.sent).toHaveLength(0);
    s.onopen?.();
    expect(s.sent).toEqual([
      { id: expect.any(Number), method: 'branch', req: expect.objectContaining({ text: 'queued' }) },
    ]);
    s.answer({ id: s.sent[0].id, ok: true, res: { id: 'b', parentId: 'p', line: 9, offset: 90 } });
    await expect(write).resolves.toMatchObject({ id: 'b' });
  });

  it('reports a sent write that timed out as unknown_outcome, a read as timeout', async () => {
    vi.useFakeTimers();
    const api = make(500);
    FakeSocket.all[0].onopen?.();
    const write = api.branch({ key: 'k', parentId: 'p', text: 't', idempotencyKey: KEY }).catch((e: unknown) => e);
    const read = api.getHome({}).catch((e: unknown) => e);
    vi.advanceTimersByTime(600);
    expect(((await write) as ApiError).code).toBe('unknown_outcome');
    expect(((await read) as ApiError).code).toBe('timeout');
  });

  it('a read that reports progress on its session is not timed out; one that goes quiet is', async () => {
    vi.useFakeTimers();
    const api = make(500);
    const s = FakeSocket.all[0];
    s.onopen?.();
    const big = 'agents/vak/sessions/00/big.jsonl';
    const open = api.openSession({ key: big }).catch((e: unknown) => e);
    const other = api.openSession({ key: 'agents/vak/sessions/00/other.jsonl' }).catch((e: unknown) => e);
    const progress = (bytesRead: number) =>
      s.answer({ event: { type: 'progress', key: big, bytesRead, bytesTotal: 10_000 } });
    for (let i = 1; i <= 5; i++) {
      vi.advanceTimersByTime(400); // 2 s in all, four times the timeout
      progress(i * 1000);
    }
    expect(((await other) as ApiError).code).toBe('timeout'); // its session reported nothing
    s.answer({ id: s.sent[0].id, ok: true, res: { key: big } });
    await expect(open).resolves.toEqual({ key: big });
    const quiet = api.openSession({ key: big }).catch((e: unknown) => e);
    vi.advanceTimersByTime(600);
    expect(((await quiet) as ApiError).code).toBe('timeout');
  });

  it('a context series whose build reports progress is not timed out while it does', async () => {
    vi.useFakeTimers();
    const api = make(500);
    const s = FakeSocket.all[0];
    s.onopen?.();
    const big = 'agents/vak/sessions/00/big.jsonl';
    const profile = { window: 200_000, reserve: 16_000, bytes_per_token: 4 };
    const series = api.getContextSeries({ key: big, leaf: null, plan: 'auto', profile }).catch((e: unknown) => e);
    for (let i = 1; i <= 5; i++) {
      vi.advanceTimersByTime(400); // 2 s in all, four times the timeout
      s.answer({ event: { type: 'seriesProgress', key: big, leaf: 'l', done: i, total: 10 } });
    }
    vi.advanceTimersByTime(400);
    s.answer({ id: s.sent[0].id, ok: true, res: { built: true } });
    await expect(series).resolves.toEqual({ built: true });
  });
});
