import { describe, expect, it } from 'vitest';
import type { Api, ApiEvent, ApiReply, CallOptions, SessionInfo } from '../../shared/api';
import type { EarlyAsk } from '../../shared/api-early';
import { API_METHOD_NAMES } from './api-methods';
import { withEarlyAsks, type HttpEarly } from './early-asks';

/** An Api that records its calls (with whether their signal was aborted) and answers when told to. */
function recordingApi() {
  const calls: { method: string; req: unknown; signal?: AbortSignal; answer: (v: unknown) => void }[] = [];
  const api = { onEvent: () => () => undefined } as Record<string, unknown>;
  for (const m of API_METHOD_NAMES) {
    api[m] = (req: unknown, opts?: CallOptions) =>
      new Promise((resolve, reject) => {
        calls.push({ method: m, req, signal: opts?.signal, answer: resolve });
        opts?.signal?.addEventListener('abort', () => reject(new Error('cancelled')));
      });
  }
  return { api: api as unknown as Api, calls };
}

const rows = { key: 'k', start: 256, count: 256, foldAudit: false };

describe('requests asked early (a reload asks what it will show with the open)', () => {
  it('sends at once, and the first same call takes the answer without asking again', async () => {
    const { api, calls } = recordingApi();
    const e = withEarlyAsks(api);
    e.askEarly('getTreeRows', rows);
    expect(calls.map((c) => c.method)).toEqual(['getTreeRows']);
    // The same request, its fields in another order.
    const p = e.api.getTreeRows({ foldAudit: false, count: 256, start: 256, key: 'k' });
    expect(calls).toHaveLength(1);
    calls[0].answer({ rows: [], total: 1, laneCount: 1 });
    await expect(p).resolves.toEqual({ rows: [], total: 1, laneCount: 1 });
    // Taken once: the next call asks.
    void e.api.getTreeRows(rows);
    expect(calls).toHaveLength(2);
  });

  it('a different first call cancels the early request and asks its own', () => {
    const { api, calls } = recordingApi();
    const e = withEarlyAsks(api);
    e.askEarly('getTreeRows', rows);
    void e.api.getTreeRows({ ...rows, start: 0 });
    expect(calls).toHaveLength(2);
    expect(calls[0].signal?.aborted).toBe(true);
    expect(calls[1].req).toMatchObject({ start: 0 });
  });

  it("the taker's abort cancels the early request", async () => {
    const { api, calls } = recordingApi();
    const e = withEarlyAsks(api);
    const req = { key: 'k', leaf: null, plan: 'auto', profile: {}, overrides: {}, pagedMessages: true } as never;
    e.askEarly('getLeafView', req);
    const ctl = new AbortController();
    const p = e.api.getLeafView(req, { signal: ctl.signal });
    expect(calls).toHaveLength(1);
    ctl.abort();
    expect(calls[0].signal?.aborted).toBe(true);
    await expect(p).rejects.toThrow('cancelled');
  });

  it('leaves every other method alone', () => {
    const { api, calls } = recordingApi();
    const e = withEarlyAsks(api);
    e.askEarly('getTreeRows', rows);
    void e.api.openSession({ key: 'k' });
    expect(calls.map((c) => c.method)).toEqual(['getTreeRows', 'openSession']);
    expect(calls[0].signal?.aborted).toBe(false);
  });
});

/** An Api as recordingApi's, whose pushed events a test sends. */
function eventApi() {
  const r = recordingApi();
  const listeners: ((e: ApiEvent) => void)[] = [];
  (r.api as { onEvent: Api['onEvent'] }).onEvent = (l) => {
    listeners.push(l);
    return () => undefined;
  };
  return { ...r, push: (e: ApiEvent) => listeners.forEach((l) => l(e)) };
}

/** What index.html's script leaves for the page: its asks and the route's answer, resolved when told. */
function httpEarly(asks: EarlyAsk[]) {
  let answer: (v: { answers: ApiReply[] } | null) => void = () => undefined;
  let fail: (e: Error) => void = () => undefined;
  const answers = new Promise<{ answers: ApiReply[] } | null>((res, rej) => {
    answer = res;
    fail = rej;
  });
  return { http: { asks, answers } satisfies HttpEarly, answer, fail };
}

const info = (key: string, entryCount: number, reading: SessionInfo['reading'] = null) =>
  ({ key, generation: 3, entryCount, appendOnlyBreaks: [], reading, activeLeaf: 'e9' }) as unknown as SessionInfo;
const openK = { method: 'openSession', req: { key: 'k' } } as const;
const rowsK = { method: 'getTreeRows', req: rows } as const;
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('answers asked over HTTP before the socket opened (serve mode)', () => {
  it('takes each answer once, for exactly the same request, and asks nothing over the socket', async () => {
    const { api, calls } = recordingApi();
    const h = httpEarly([openK, rowsK]);
    const e = withEarlyAsks(api, h.http);
    const opened = e.api.openSession({ key: 'k' });
    e.askEarly('getTreeRows', { ...rows });
    const taken = e.api.getTreeRows({ foldAudit: false, count: 256, start: 256, key: 'k' });
    h.answer({
      answers: [
        { ok: true, res: info('k', 5) },
        { ok: true, res: { rows: ['r'], total: 1, laneCount: 1 } },
      ],
    });
    await expect(opened).resolves.toMatchObject({ key: 'k', entryCount: 5 });
    await expect(taken).resolves.toMatchObject({ rows: ['r'] });
    expect(calls).toEqual([]);
    // Taken once: the next open and rows are asked.
    void e.api.openSession({ key: 'k' });
    void e.api.getTreeRows(rows);
    expect(calls.map((c) => c.method)).toEqual(['openSession', 'getTreeRows']);
  });

  it('never answers another session or another request with them', async () => {
    const { api, calls } = recordingApi();
    const h = httpEarly([openK, rowsK]);
    const e = withEarlyAsks(api, h.http);
    h.answer({
      answers: [
        { ok: true, res: info('k', 5) },
        { ok: true, res: { rows: ['stale'] } },
      ],
    });
    void e.api.openSession({ key: 'other' });
    e.askEarly('getTreeRows', { ...rows, start: 0 });
    expect(calls.map((c) => [c.method, (c.req as { key: string }).key])).toEqual([
      ['openSession', 'other'],
      ['getTreeRows', 'k'],
    ]);
    expect(calls[1].req).toMatchObject({ start: 0 });
    // Dropped, not kept for later: the same request afterwards is asked too.
    e.askEarly('getTreeRows', rows);
    expect(calls).toHaveLength(3);
  });

  it('asks over the socket, once, when the post failed or its answer to a request is an error', async () => {
    const { api, calls } = recordingApi();
    const h = httpEarly([openK, rowsK]);
    const e = withEarlyAsks(api, h.http);
    const opened = e.api.openSession({ key: 'k' });
    e.askEarly('getTreeRows', rows);
    const taken = e.api.getTreeRows(rows);
    h.answer({
      answers: [
        { ok: true, res: info('k', 5) },
        { ok: false, error: { code: 'internal', message: 'x' } },
      ],
    });
    await expect(opened).resolves.toMatchObject({ entryCount: 5 });
    await settle();
    expect(calls.map((c) => c.method)).toEqual(['getTreeRows']);
    calls[0].answer({ rows: ['socket'] });
    await expect(taken).resolves.toEqual({ rows: ['socket'] });

    const r2 = recordingApi();
    const h2 = httpEarly([openK]);
    const e2 = withEarlyAsks(r2.api, h2.http);
    const opened2 = e2.api.openSession({ key: 'k' });
    h2.fail(new Error('network'));
    await settle();
    expect(r2.calls.map((c) => c.method)).toEqual(['openSession']);
    r2.calls[0].answer(info('k', 7));
    await expect(opened2).resolves.toMatchObject({ entryCount: 7 });
    expect(r2.calls).toHaveLength(1);
  });

  it("drops an answer not yet taken once its session changed (an event), and the subscription names the open's generation", async () => {
    const { api, calls, push } = eventApi();
    const h = httpEarly([openK, rowsK]);
    const e = withEarlyAsks(api, h.http);
    // The controller subscribes before it opens: the subscription waits for the open's answer.
    const sub = e.api.subscribe({ topic: 'session', key: 'k' });
    const opened = e.api.openSession({ key: 'k' });
    h.answer({
      answers: [
        { ok: true, res: info('k', 5) },
        { ok: true, res: { rows: ['old'] } },
      ],
    });
    await opened;
    await settle();
    expect(calls.map((c) => [c.method, c.req])).toEqual([
      ['subscribe', { topic: 'session', key: 'k', since: { generation: 3, entryCount: 5, reading: false } }],
    ]);
    calls[0].answer({ subscription: 's1' });
    await expect(sub).resolves.toEqual({ subscription: 's1' });
    push({ type: 'session', key: 'k', change: 'reloaded', entryCount: 6, activeLeaf: 'e10', newIds: [] });
    // The rows answered for 5 entries are not taken after that: they are asked.
    e.askEarly('getTreeRows', rows);
    expect(calls.map((c) => c.method)).toEqual(['subscribe', 'getTreeRows']);
  });

  it('takes an open answered while a first read runs as it is, and subscribes from where it stood', async () => {
    const { api, calls } = eventApi();
    const h = httpEarly([openK]);
    const e = withEarlyAsks(api, h.http);
    const sub = e.api.subscribe({ topic: 'session', key: 'k' });
    const opened = e.api.openSession({ key: 'k' });
    const reading = { bytesRead: 4, bytesTotal: 40, entriesRead: 3 };
    h.answer({ answers: [{ ok: true, res: info('k', 5, reading) }] });
    await expect(opened).resolves.toMatchObject({ entryCount: 5, reading });
    await settle();
    // Not asked again on the socket: the steps read since come in the subscription's next event.
    expect(calls.map((c) => [c.method, c.req])).toEqual([
      ['subscribe', { topic: 'session', key: 'k', since: { generation: 3, entryCount: 5, reading: true } }],
    ]);
    calls[0].answer({ subscription: 's1' });
    await expect(sub).resolves.toEqual({ subscription: 's1' });
  });

  it("the first request of a method that is exactly the posted one takes its answer (the active leaf's page)", async () => {
    const holding = { key: 'k', start: 0, count: 256, foldAudit: false, holding: 'activeLeaf' as const };
    const page = { rows: ['r'], total: 1, laneCount: 1, start: 0 };
    const { api, calls } = recordingApi();
    const h = httpEarly([openK, { method: 'getTreeRows', req: holding }]);
    const e = withEarlyAsks(api, h.http);
    const rows = e.api.getTreeRows({ ...holding });
    h.answer({
      answers: [
        { ok: true, res: info('k', 5) },
        { ok: true, res: page },
      ],
    });
    await expect(rows).resolves.toEqual(page);
    expect(calls).toEqual([]);
    // Once: the same request again is asked.
    void e.api.getTreeRows(holding);
    expect(calls.map((c) => c.method)).toEqual(['getTreeRows']);

    // Another first request drops it and is asked as it is.
    const r2 = recordingApi();
    const h2 = httpEarly([{ method: 'getTreeRows', req: holding }]);
    const e2 = withEarlyAsks(r2.api, h2.http);
    void e2.api.getTreeRows({ key: 'k', start: 256, count: 256, foldAudit: false });
    void e2.api.getTreeRows(holding);
    expect(r2.calls.map((c) => (c.req as { start: number }).start)).toEqual([256, 0]);
  });

  it('without them (Electron, no session in the URL) nothing changes', () => {
    const { api, calls } = recordingApi();
    const e = withEarlyAsks(api, null);
    void e.api.subscribe({ topic: 'session', key: 'k' });
    void e.api.openSession({ key: 'k' });
    expect(calls.map((c) => [c.method, c.req])).toEqual([
      ['subscribe', { topic: 'session', key: 'k' }],
      ['openSession', { key: 'k' }],
    ]);
  });
});
