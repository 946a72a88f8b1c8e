import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import type { CancelSignal } from '../core/cancel';
import { SessionCache } from '../library/session-cache';
import { leafView, projectedMessage, projectedMessages } from './leaf-view';

const FIXTURES = join(__dirname, '../../../../shared/fixtures');
const KEY = 'agents/vak/sessions/0000000000000000/packets.jsonl';

let dir: string;
let cache: SessionCache;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vak-plan-cancel-'));
  mkdirSync(join(dir, 'agents/vak/sessions/0000000000000000'), { recursive: true });
  copyFileSync(join(FIXTURES, 'packets.jsonl'), join(dir, KEY));
  cache = new SessionCache(dir);
});
afterAll(() => {
  cache.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('a cached leaf plan and cancellation', () => {
  it('a request that was cancelled after building the plan does not cancel the next request that reuses it', async () => {
    const s = await cache.acquire(KEY);
    const req = { key: KEY, leaf: null, plan: 'none' as const, profile: DEFAULT_PROFILE, overrides: {} };
    // The first asker builds (and caches) the plan, then is superseded: its signal is aborted.
    const first: { aborted: boolean } = { aborted: false };
    const built = leafView(s, { ...req, pagedMessages: true }, first);
    expect(built.messageCount).toBeGreaterThan(3);
    first.aborted = true;
    // The next asker of the same leaf reuses the cached plan with its own, live signal.
    const next: CancelSignal = { aborted: false };
    expect(() => leafView(s, { ...req, pagedMessages: false }, next)).not.toThrow();
    expect(leafView(s, { ...req, pagedMessages: false }, next).projection.messages).toHaveLength(built.messageCount);
    expect(() => projectedMessages(s, { ...req, start: 0, count: built.messageCount }, next)).not.toThrow();
    expect(() => projectedMessage(s, { ...req, message: 1 }, next)).not.toThrow();
    // Its own cancellation still stops it.
    expect(() => leafView(s, { ...req, pagedMessages: false }, { aborted: true })).toThrow(/cancelled/);
  });
});
