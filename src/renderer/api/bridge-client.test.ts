import { describe, expect, it } from 'vitest';
import type { ApiEvent, BridgeApi } from '../../shared/api';
import { API_METHOD_NAMES } from './api-methods';
import { bridgeApi } from './bridge-client';

/** A bridge that records what the client passes it and answers when told to. */
function recordingBridge() {
  const calls: { method: string; req: unknown; callId: number | undefined; answer: (v: unknown) => void }[] = [];
  const cancelled: number[] = [];
  const bridge = {
    onEvent: (l: (e: ApiEvent) => void) => {
      l({ type: 'progress', key: 'k', bytesRead: 1, bytesTotal: 2, entriesRead: 3 });
      return () => undefined;
    },
    cancel: (id: number) => cancelled.push(id),
    ready: () => undefined,
  } as Record<string, unknown>;
  for (const m of API_METHOD_NAMES) {
    bridge[m] = (req: unknown, callId?: number) =>
      new Promise((resolve) => calls.push({ method: m, req, callId, answer: resolve }));
  }
  return { bridge: bridge as unknown as BridgeApi, calls, cancelled };
}

describe('the Electron client (preload bridge as the Api)', () => {
  it('passes no call id without a signal, and answers as the bridge does', async () => {
    const { bridge, calls, cancelled } = recordingBridge();
    const api = bridgeApi(bridge);
    const p = api.getHome({});
    expect(calls[0]).toMatchObject({ method: 'getHome', callId: undefined });
    calls[0].answer({ home: '/h' });
    await expect(p).resolves.toEqual({ home: '/h' });
    expect(cancelled).toEqual([]);
    const seen: ApiEvent[] = [];
    api.onEvent((e) => seen.push(e));
    expect(seen).toHaveLength(1);
  });

  it('an aborted signal rejects with cancelled at once and cancels the call id on the bridge', async () => {
    const { bridge, calls, cancelled } = recordingBridge();
    const api = bridgeApi(bridge);
    const a = new AbortController();
    const b = new AbortController();
    const first = api.listSessions({}, { signal: a.signal });
    const second = api.listSessions({}, { signal: b.signal });
    expect(calls.map((c) => c.callId)).toEqual([1, 2]);
    a.abort();
    await expect(first).rejects.toMatchObject({ code: 'cancelled' });
    expect(cancelled).toEqual([1]);
    calls[1].answer([]);
    await expect(second).resolves.toEqual([]);
    b.abort(); // after the answer: nothing more to cancel
    expect(cancelled).toEqual([1]);
    await expect(api.listSessions({}, { signal: a.signal })).rejects.toMatchObject({ code: 'cancelled' });
    expect(calls).toHaveLength(2);
  });
});
