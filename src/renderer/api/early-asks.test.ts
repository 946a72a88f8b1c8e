import { describe, expect, it } from 'vitest';
import type { Api, CallOptions } from '../../shared/api';
import { API_METHOD_NAMES } from './api-methods';
import { withEarlyAsks } from './early-asks';

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
