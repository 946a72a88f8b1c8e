/**
 * Where a leaf's plan starts from among the kept ones (`startFacts`): a key down the chain starts
 * from the leaf just shown, not from a deeper kept leaf of the same chain (which would drop its
 * entries below the new leaf and scan the prefix again). Whichever it starts from, every answer
 * equals a fresh backend's, before and after an append.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, LeafView, PlanTurns } from '../../shared/api';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { generateSession } from '../../generator';
import { useTempDir } from '../../test-support/temp-dir';
import { chainToRoot } from '../core/chain';
import { nearestPlanned } from '../core/chain-facts';
import { cwdHash } from '../core/fnv1a64';
import { Ledger } from '../core/ledger';
import { F_RESET, KIND } from '../core/ledger-index';
import { planLeaf, projectionOf } from '../core/leaf-plan';
import type { ApiClient } from './api-backend';
import { ExplorerBackend } from './explorer-backend';
import { startFacts } from './leaf-context';

const tempDir = useTempDir('vak-leaf-start-');
const CWD = '/home/ana/projects/keys';
const open: ExplorerBackend[] = [];
afterEach(async () => {
  for (const b of open.splice(0)) await b.close();
});
const events: ApiEvent[] = [];
const client: ApiClient = { id: 'keys', push: (e) => events.push(e) };

/** A home with one generated session: `mixed` has resets, cards, packets and presentations. */
function homeOf(shape: 'mixed' | 'uncompacted', seed: number): { home: string; key: string; path: string } {
  const home = tempDir();
  const g = generateSession({ seed, entries: 3000, cwd: CWD, shape, branchChance: 0.02 });
  const key = `agents/vak/sessions/${cwdHash(CWD)}/${g.sessionId}.jsonl`;
  mkdirSync(join(home, key, '..'), { recursive: true });
  appendFileSync(join(home, key), g.bytes);
  return { home, key, path: join(home, key) };
}

async function backendOf(home: string): Promise<ExplorerBackend> {
  const b = await ExplorerBackend.create({
    home,
    isDemo: false,
    label: 'test',
    lockPollMs: 0,
    rescanMs: 0,
    firstReadBytes: Infinity,
  });
  open.push(b);
  return b;
}

const request = (key: string, leaf: string | null) => ({
  key,
  leaf,
  plan: 'auto' as const,
  profile: DEFAULT_PROFILE,
  overrides: {},
});
/** The whole projection, so that every message of the plan is shaped and compared. */
const view = (b: ExplorerBackend, key: string, leaf: string | null): Promise<LeafView> =>
  b.call('getLeafView', { ...request(key, leaf), pagedMessages: false }, client) as Promise<LeafView>;
const turns = (b: ExplorerBackend, key: string, leaf: string): Promise<PlanTurns> =>
  b.call('getPlanTurns', { ...request(key, leaf), start: 0, count: 1000 }, client) as Promise<PlanTurns>;

const isReset = (l: Ledger, i: number): boolean =>
  l.index.kind[i] === KIND.compaction && (l.index.flags[i] & F_RESET) !== 0;

describe('a leaf plan starts from the cheapest kept leaf', () => {
  it('a key down the chain starts from the leaf shown, not from a deeper kept leaf of the chain', async () => {
    const { path } = homeOf('mixed', 5);
    const l = await Ledger.open(path);
    const ix = l.index;
    const bpt = DEFAULT_PROFILE.bytes_per_token;
    const chain = chainToRoot(ix, ix.activeLeaf);
    const resets = [...chain].flatMap((i, pos) => (isReset(l, i) ? [pos] : []));
    expect(resets.length).toBeGreaterThan(0);
    const opts = { plan: 'auto' as const, profile: DEFAULT_PROFILE };
    const deep = planLeaf(l, ix.activeLeaf, opts).chainFacts;
    // Between two resets, then across one.
    const within = Math.floor((resets[0] + (resets[1] ?? chain.length)) / 2);
    const across = resets[0] - 2;
    for (const [pos, startsAbove] of [
      [within, true],
      [across, false],
    ] as const) {
      const shown = planLeaf(l, chain[pos], opts).chainFacts;
      const next = chain[pos + 5];
      // The chain that shares the most is the deeper one: it holds the new leaf itself.
      expect(nearestPlanned(ix, [deep, shown], next, bpt)?.prev).toBe(deep);
      const start = startFacts(ix, [deep, shown], next, bpt);
      expect(start).toEqual([startsAbove ? shown : deep]);
      // Either way the plan is the one planned from nothing.
      const from = planLeaf(l, next, opts, start);
      const fresh = planLeaf(l, next, opts);
      expect(projectionOf(from, [])).toEqual(projectionOf(fresh, []));
      expect(from.messages(0, from.messageCount)).toEqual(fresh.messages(0, fresh.messageCount));
    }
    // A leaf on another branch, or below the deeper one: all are offered, as before.
    const kept = [deep];
    expect(startFacts(ix, kept, ix.activeLeaf, bpt)).toBe(kept);
    l.close();
  });

  it('a leaf above a planned one on its chain takes a view of that chain; one below copies it', async () => {
    const { path } = homeOf('uncompacted', 3);
    const l = await Ledger.open(path);
    const ix = l.index;
    const opts = { plan: 'auto' as const, profile: DEFAULT_PROFILE };
    const chain = chainToRoot(ix, ix.activeLeaf);
    const mid = Math.floor(chain.length / 2);
    const deep = planLeaf(l, ix.activeLeaf, opts).chainFacts;
    // Above: the chain is the deeper chain's first entries, the same memory (no copy of a long chain).
    const above = planLeaf(l, chain[mid], opts, deep);
    expect(above.chain.buffer).toBe(deep.chain.buffer);
    expect([...above.chain]).toEqual([...chainToRoot(ix, chain[mid])]);
    // Below a planned leaf: a chain of its own, with the planned one's entries first.
    const below = planLeaf(l, chain[mid + 3], opts, above.chainFacts);
    expect(below.chain.buffer).not.toBe(deep.chain.buffer);
    expect([...below.chain]).toEqual([...chainToRoot(ix, chain[mid + 3])]);
    // Either way the plan is the one planned from nothing.
    for (const [got, leaf] of [
      [above, chain[mid]],
      [below, chain[mid + 3]],
    ] as const) {
      const fresh = planLeaf(l, leaf, opts);
      expect(projectionOf(got, [])).toEqual(projectionOf(fresh, []));
      expect(got.messages(0, got.messageCount)).toEqual(fresh.messages(0, fresh.messageCount));
    }
    l.close();
  });

  for (const shape of ['mixed', 'uncompacted'] as const) {
    it(`five keys down the chain answer as a fresh backend does (${shape}), before and after an append`, async () => {
      const { home, key, path } = homeOf(shape, 7);
      events.length = 0;
      const b = await backendOf(home);
      await b.call('subscribe', { topic: 'session', key }, client);
      const active = await view(b, key, null);
      const s = b.cache.get(key);
      if (!s) throw new Error('not open');
      const ix = s.ledger.index;
      const chain = chainToRoot(ix, ix.activeLeaf);
      const ids = (from: number): string[] => Array.from(chain.subarray(from, from + 6), (i) => ix.ids[i]);
      // A leaf shown, then five keys (each answered), with the active (deeper) leaf kept; three places.
      const places = [0.2, 0.5, 0.8].map((f) => ids(Math.floor(chain.length * f)));
      const asked: [string, LeafView, PlanTurns][] = [];
      for (const place of places) {
        await view(b, key, null);
        for (const id of place) asked.push([id, await view(b, key, id), await turns(b, key, id)]);
      }
      // The same leaves after an append below the active leaf (a new reading of the tail, same chains).
      const line =
        JSON.stringify({
          id: 'appended-1',
          parent_id: active.leaf,
          ts: '2026-12-01T00:00:00.000Z',
          prev_hash: s.ledger.lastLineHash,
          kind: 'message',
          message: { role: 'user', content: [{ type: 'text', text: 'one more directive' }] },
        }) + '\n';
      appendFileSync(path, line);
      const announced = (): boolean =>
        events.some(
          (e) => e.type === 'session' && e.key === key && e.change === 'appended' && e.newIds.includes('appended-1'),
        );
      while (!announced()) await new Promise((r) => setTimeout(r, 10));
      const appended = await view(b, key, null);
      expect(appended.leaf).toBe('appended-1');
      for (const place of places) {
        for (const id of place) asked.push([id, await view(b, key, id), await turns(b, key, id)]);
      }
      const fresh = await backendOf(home);
      expect(await view(fresh, key, null)).toEqual(appended);
      for (const [id, v, t] of asked) {
        const cold = await backendOf(home);
        expect(v).toEqual(await view(cold, key, id));
        expect(t).toEqual(await turns(cold, key, id));
        await cold.close();
        open.pop();
      }
    });
  }
});
