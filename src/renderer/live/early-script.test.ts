// @vitest-environment jsdom
/**
 * index.html's first script (src/shared/early-script.ts) asks over HTTP exactly what the page
 * then asks itself on a reload (the session's open, open-early.ts's asks): an answer is taken only
 * for the very same request, so a script that asked anything else would be wasted work.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { EARLY_ANSWERS_PATH, type EarlyAsk } from '../../shared/api-early';
import { EARLY_SCREEN, EARLY_SCRIPT, EARLY_TREE_PAGE, OPENED_ROW_KEY } from '../../shared/early-script';
import { TREE_PAGE } from '../data/session-sources';
import { useAppStore } from '../store/app-store';
import { restoreUrl } from '../store/use-url-sync';
import { HISTORY_OVERSCAN, HISTORY_ROW_PX, MESSAGE_MIN_PX, MESSAGE_OVERSCAN } from '../util/leaf-screen';
import { activeLeafPageRequest, askOpenEarly, keptRowPage, readKeptRow } from './open-early';

const KEY = 'agents/vak/sessions/0000000000000000/01a22688-5a80-7d3d-a60d-53f7388101d1.jsonl';

/** Runs the script on a page at `hash` (http, no preload bridge); returns what it posted. */
function runScript(
  hash: string,
  opts: { vak?: boolean; protocol?: string } = {},
): { asks: EarlyAsk[]; posted: unknown[] } | null {
  const posted: unknown[] = [];
  const win: Record<string, unknown> = { innerHeight: window.innerHeight, ...(opts.vak ? { vak: {} } : {}) };
  const location = { protocol: opts.protocol ?? 'http:', host: '127.0.0.1:1', hash };
  const fetchStub = (url: string, init: { method: string; body: string; headers: Record<string, string> }) => {
    posted.push({
      url,
      method: init.method,
      type: init.headers['Content-Type'],
      body: JSON.parse(init.body) as unknown,
    });
    return new Promise(() => undefined);
  };
  class NoSocket {
    constructor(readonly url: string) {}
  }
  // eslint-disable-next-line no-new-func -- runs the inline script's own text, as the page does
  new Function('location', 'window', 'fetch', 'WebSocket', EARLY_SCRIPT)(location, win, fetchStub, NoSocket);
  const early = win.__vakEarlyAnswers as { asks: EarlyAsk[] } | undefined;
  return early ? { asks: early.asks, posted } : null;
}

/** What the page asks itself for the same URL and kept row: the controller's open, then open-early's asks. */
function pageAsks(hash: string): EarlyAsk[] {
  restoreUrl({ location: { hash } } as Window);
  readKeptRow();
  const st = useAppStore.getState();
  const key = st.sessionKey!;
  const kept = keptRowPage(st, key);
  const asked: EarlyAsk[] = [{ method: 'openSession', req: { key } }];
  // The controller's page of the active leaf (use-session.ts openFromUrl, SessionController.start).
  if (kept === null && st.leaf === null)
    asked.push({ method: 'getTreeRows', req: activeLeafPageRequest(key, st.foldAudit) });
  askOpenEarly((method, req) => asked.push({ method, req }), st, key, kept);
  return asked;
}

const keep = (row: number, leaf: string | null = null) =>
  sessionStorage.setItem(OPENED_ROW_KEY, JSON.stringify({ key: KEY, leaf, foldAudit: false, row }));

beforeEach(() => sessionStorage.clear());

describe("index.html's early asks", () => {
  it("uses the renderer's figures", () => {
    expect(EARLY_TREE_PAGE).toBe(TREE_PAGE);
    expect(EARLY_SCREEN).toEqual({
      rowPx: HISTORY_ROW_PX,
      rowOverscan: HISTORY_OVERSCAN,
      messagePx: MESSAGE_MIN_PX,
      messageOverscan: MESSAGE_OVERSCAN,
    });
  });

  it.each([
    ['the active leaf, no kept row', `#v=2&s=${encodeURIComponent(KEY)}`, null],
    ['the active leaf, its kept row', `#v=2&s=${encodeURIComponent(KEY)}`, 35_900],
    ['a named leaf and its kept row', `#v=2&s=${encodeURIComponent(KEY)}&leaf=e0021`, 300],
    ['a named leaf, a row kept for another', `#v=2&s=${encodeURIComponent(KEY)}&leaf=e0007`, 300],
  ])('posts exactly what the page asks: %s', (_what, hash, row) => {
    if (row !== null) keep(row, hash.includes('leaf=e0021') ? 'e0021' : null);
    const script = runScript(hash);
    expect(script?.posted).toEqual([
      { url: EARLY_ANSWERS_PATH, method: 'POST', type: 'application/json', body: { asks: script?.asks } },
    ]);
    expect(JSON.parse(JSON.stringify(script?.asks))).toEqual(JSON.parse(JSON.stringify(pageAsks(hash))));
  });

  it('asks no leaf view for a link that names a plan, a profile or a comparison (the page asks it)', () => {
    const hash = `#v=2&s=${encodeURIComponent(KEY)}&plan=none&w=9000`;
    const script = runScript(hash);
    expect(script?.asks.map((a) => a.method)).toEqual(['openSession', 'getTreeRows']);
    expect(pageAsks(hash).map((a) => a.method)).toEqual(['openSession', 'getTreeRows', 'getLeafView']);
  });

  it('asks nothing without a session, in Electron, or off http(s)', () => {
    expect(runScript('#v=2')).toBeNull();
    expect(runScript(`#v=2&s=${encodeURIComponent(KEY)}`, { vak: true })).toBeNull();
    expect(runScript(`#v=2&s=${encodeURIComponent(KEY)}`, { protocol: 'file:' })).toBeNull();
  });
});
