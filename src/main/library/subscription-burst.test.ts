import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import { useTempDir } from '../../test-support/temp-dir';
import type { ApiClient } from '../api/api-backend';
import { ExplorerBackend } from '../api/explorer-backend';
import { SessionCache } from './session-cache';

/**
 * With more sessions followed in one burst than the cache keeps unpinned,
 * every follower must still hear of appends. The cache used to evict a session opened
 * in the burst before its subscriber pinned it, and a closed session gets no events.
 */

const tmp = useTempDir('vak-burst-');
const N = 20;

/** A linear ledger of a header and `n` messages, hash-linked; returns its lines. */
function ledgerLines(n: number): string[] {
  let prev: string | null = null;
  const out: string[] = [];
  for (let k = 0; k <= n; k++) {
    const e: Record<string, unknown> =
      k === 0
        ? { id: 'e0', parent_id: null, ts: '2026-01-01T00:00:00.000Z', prev_hash: prev, kind: 'header', cwd: '/w' }
        : {
            id: `e${k}`,
            parent_id: `e${k - 1}`,
            ts: '2026-01-01T00:00:01.000Z',
            prev_hash: prev,
            kind: 'message',
            message: { role: k % 2 ? 'user' : 'assistant', content: [{ type: 'text', text: `line ${k}` }] },
          };
    const line: string = JSON.stringify(e);
    prev = createHash('sha256').update(line).digest('hex');
    out.push(line + '\n');
  }
  return out;
}

/** A home with N sessions of 4 entries each (their 5th line held back for the append). */
function home(): { home: string; keys: string[]; fifth: string } {
  const h = tmp();
  const d = join(h, 'agents/vak/sessions/h');
  mkdirSync(d, { recursive: true });
  const lines = ledgerLines(4);
  const keys: string[] = [];
  for (let k = 0; k < N; k++) {
    writeFileSync(join(d, `s${k}.jsonl`), lines.slice(0, 4).join(''));
    keys.push(`agents/vak/sessions/h/s${k}.jsonl`);
  }
  return { home: h, keys, fifth: lines[4] };
}

class Client implements ApiClient {
  events: ApiEvent[] = [];
  constructor(readonly id: string) {}
  push(e: ApiEvent): void {
    this.events.push(e);
  }
}

let backend: ExplorerBackend | null = null;
afterEach(async () => {
  await backend?.close();
  backend = null;
});

describe('a burst of subscriptions', () => {
  it(`${N} sessions followed at once all stay open and all hear of an append`, async () => {
    const h = home();
    backend = await ExplorerBackend.create({ home: h.home, isDemo: false, label: 't', lockPollMs: 0, cacheSize: 4 });
    const clients = h.keys.map((_, k) => new Client(`c${k}`));
    await Promise.all(h.keys.map((key, k) => backend!.call('subscribe', { topic: 'session', key }, clients[k])));
    expect(backend.cache.keys().sort()).toEqual([...h.keys].sort());
    for (const key of h.keys) appendFileSync(join(h.home, key), h.fifth);
    const appended = (c: Client): boolean => c.events.some((e) => e.type === 'session' && e.change === 'appended');
    for (let t = 0; t < 300 && !clients.every(appended); t++) await new Promise((r) => setTimeout(r, 10));
    const missing = h.keys.filter((_, k) => !appended(clients[k]));
    expect(missing).toEqual([]);
    for (const c of clients) {
      expect(c.events.find((e) => e.type === 'session')).toMatchObject({ change: 'appended', newIds: ['e4'] });
    }
  });

  it('acquirePinned keeps every session of a concurrent burst open; unpinning lets the LRU shrink', async () => {
    const h = home();
    const cache = new SessionCache(h.home, 4);
    try {
      await Promise.all(h.keys.map((k) => cache.acquirePinned(k)));
      expect(cache.keys()).toHaveLength(N);
      for (const k of h.keys) cache.unpin(k);
      expect(cache.keys()).toHaveLength(4);
    } finally {
      cache.closeAll();
    }
  });
});
