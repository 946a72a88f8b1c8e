import { describe, expect, it } from 'vitest';
import type { Api, CallOptions } from '../../shared/api';
import { API_METHOD_NAMES } from './api-methods';
import { withEarlyAsks } from './early-asks';
import { AFTER_FIRST_SCREEN, afterFirstScreen, holdUntil } from './hold-until';

/** An Api that records its calls and answers when told to. */
function recordingApi() {
  const calls: { method: string; req: unknown; signal?: AbortSignal; answer: (v: unknown) => void }[] = [];
  const api = { onEvent: () => () => undefined } as Record<string, unknown>;
  for (const m of API_METHOD_NAMES) {
    api[m] = (req: unknown, opts?: CallOptions) =>
      new Promise((resolve) => {
        calls.push({ method: m, req, signal: opts?.signal, answer: resolve });
      });
  }
  return { api: api as unknown as Api, calls };
}

function gate() {
  let open!: () => void;
  const p = new Promise<void>((r) => (open = r));
  return { p, open };
}

const key = 'agents/a/s.jsonl';

describe('calls held until the first screen (a reload asks its session first)', () => {
  it("holds the library's calls, not the session's or the chart's, and sends them in order once open", async () => {
    const { api, calls } = recordingApi();
    const g = gate();
    const held = holdUntil(api, g.p, AFTER_FIRST_SCREEN);
    const answers: unknown[] = [];
    void held.listSessions({}).then((r) => answers.push(r));
    void held.subscribe({ topic: 'library' });
    void held.subscribe({ topic: 'session', key });
    void held.openSession({ key });
    void held.getContextSeries({ key, leaf: null } as never);
    void held.getSecretCounts({});
    void held.getTreeRows({ key, start: 0, count: 256, foldAudit: false });
    // The chart's series is not held here: the chart asks it once the panes are painted.
    expect(calls.map((c) => c.method)).toEqual(['subscribe', 'openSession', 'getContextSeries', 'getTreeRows']);
    expect(calls[0].req).toEqual({ topic: 'session', key });

    g.open();
    await g.p;
    await Promise.resolve();
    expect(calls.map((c) => c.method)).toEqual([
      'subscribe',
      'openSession',
      'getContextSeries',
      'getTreeRows',
      'listSessions',
      'subscribe',
      'getSecretCounts',
    ]);
    expect(calls[5].req).toEqual({ topic: 'library' });
    calls[4].answer({ sessions: [] });
    await Promise.resolve();
    await Promise.resolve();
    expect(answers).toEqual([{ sessions: [] }]);
    // Once open, nothing waits.
    void held.getHome({});
    expect(calls.at(-1)?.method).toBe('getHome');
  });

  it('a held call aborted while it waits is never sent and fails as cancelled', async () => {
    const { api, calls } = recordingApi();
    const g = gate();
    const held = holdUntil(api, g.p, AFTER_FIRST_SCREEN);
    const ctl = new AbortController();
    const p = held.listSessions({}, { signal: ctl.signal });
    ctl.abort();
    await expect(p).rejects.toThrow('cancelled');
    g.open();
    await g.p;
    await Promise.resolve();
    expect(calls).toHaveLength(0);
  });

  it('a held call keeps its signal: aborted after it left, the sent call sees it', async () => {
    const { api, calls } = recordingApi();
    const g = gate();
    const held = holdUntil(api, g.p, AFTER_FIRST_SCREEN);
    const ctl = new AbortController();
    void held.listSessions({}, { signal: ctl.signal }).catch(() => undefined);
    g.open();
    await g.p;
    await Promise.resolve();
    expect(calls).toHaveLength(1);
    ctl.abort();
    expect(calls[0].signal?.aborted).toBe(true);
  });

  it('the first screen is the early leaf view answered, then an idle moment; or the cap', async () => {
    const { api, calls } = recordingApi();
    const e = withEarlyAsks(api);
    const req = { key, leaf: null, plan: 'auto', profile: {}, overrides: {}, pagedMessages: true } as never;
    e.askEarly('getLeafView', req);
    let shown = false;
    const idles: (() => void)[] = [];
    const win = { requestIdleCallback: (f: () => void) => void idles.push(f) } as unknown as Window;
    void afterFirstScreen(e.settled('getLeafView'), 60_000, win).then(() => (shown = true));
    await Promise.resolve();
    expect(idles).toHaveLength(0);
    calls[0].answer({});
    await new Promise((r) => setTimeout(r, 0));
    expect(idles).toHaveLength(1);
    expect(shown).toBe(false);
    idles[0]();
    await Promise.resolve();
    expect(shown).toBe(true);
  });

  it('the first screen comes by the cap when the leaf view never answers', async () => {
    const { api } = recordingApi();
    const e = withEarlyAsks(api);
    e.askEarly('getLeafView', { key, leaf: null } as never);
    const win = { requestIdleCallback: () => undefined } as unknown as Window;
    await expect(afterFirstScreen(e.settled('getLeafView'), 5, win)).resolves.toBeUndefined();
  });
});
