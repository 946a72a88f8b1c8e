/**
 * The work-count invariants: what selecting, appending and paging cost, counted in
 * turns shaped, entries parsed and bytes read (never timed, so a busy machine cannot flake them).
 */
import { appendFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, LeafView, ProjectedMessages, SessionInfo, WorkItems } from '../../shared/api';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { generateSession } from '../../generator';
import { useTempDir } from '../../test-support/temp-dir';
import { chainToRoot } from '../core/chain';
import { cwdHash } from '../core/fnv1a64';
import { Ledger } from '../core/ledger';
import { KIND } from '../core/ledger-index';
import { foldWork } from '../core/work-fold';
import { turnCacheOf } from '../core/turn-cache';
import { buildTurnIndex } from '../core/turn-index';
import type { ApiClient } from './api-backend';
import { ExplorerBackend } from './explorer-backend';

const tempDir = useTempDir('vak-work-counts-');
const CWD = '/home/ana/projects/counted';
const open: ExplorerBackend[] = [];
afterEach(async () => {
  for (const b of open.splice(0)) await b.close();
});

const events: ApiEvent[] = [];
const client: ApiClient = { id: 'counted', push: (e) => events.push(e) };

/** A backend over a home with one all-Full (uncompacted) generated session with a few branches. */
async function sessionOf(entries: number, seed: number): Promise<{ b: ExplorerBackend; key: string; path: string }> {
  const home = tempDir();
  const g = generateSession({ seed, entries, cwd: CWD, shape: 'uncompacted', branchChance: 0.02 });
  const key = `agents/vak/sessions/${cwdHash(CWD)}/${g.sessionId}.jsonl`;
  mkdirSync(join(home, key, '..'), { recursive: true });
  appendFileSync(join(home, key), g.bytes);
  const b = await ExplorerBackend.create({ home, isDemo: false, label: 'test', lockPollMs: 0, rescanMs: 100 });
  open.push(b);
  return { b, key, path: join(home, key) };
}

const view = (b: ExplorerBackend, key: string, leaf: string | null): Promise<LeafView> =>
  b.call(
    'getLeafView',
    { key, leaf, plan: 'none', profile: DEFAULT_PROFILE, overrides: {}, pagedMessages: true },
    client,
  ) as Promise<LeafView>;

function ledgerOf(b: ExplorerBackend, key: string): Ledger {
  const s = b.cache.get(key);
  if (!s) throw new Error(`${key} is not open`);
  return s.ledger;
}

/** Closed turns of `leaf`'s chain as (first entry, last entry) keys: what the turn cache is keyed by. */
function closedTurnKeys(l: Ledger, leaf: number): Set<string> {
  const t = buildTurnIndex(l.index, chainToRoot(l.index, leaf));
  return new Set(t.turns.filter((x) => !x.open).map((x) => `${x.entries[0]}:${x.entries[x.entries.length - 1]}`));
}

describe('work-count invariants', () => {
  it('selecting the next entry of a long chain shapes at most the one turn that differs', async () => {
    const { b, key } = await sessionOf(4000, 21);
    const first = await view(b, key, null);
    const l = ledgerOf(b, key);
    const cache = turnCacheOf(l);
    const chain = chainToRoot(l.index, l.index.activeLeaf);
    const closedTotal = first.plan.turns;
    expect(closedTotal).toBeGreaterThan(100);
    // Walk 60 entries up the chain from its middle, one at a time (the `j` key).
    const from = Math.floor(chain.length / 2);
    let prevKeys = closedTurnKeys(l, chain[from]);
    const seen = new Set([...closedTurnKeys(l, l.index.activeLeaf), ...prevKeys]);
    await view(b, key, l.index.ids[chain[from]]);
    for (let pos = from + 1; pos < from + 60; pos++) {
      const before = { ...cache.stats };
      const read = l.stats.entriesMaterialised;
      const v = await view(b, key, l.index.ids[chain[pos]]);
      const keys = closedTurnKeys(l, chain[pos]);
      const differing = [...keys].filter((k) => !prevKeys.has(k)).length;
      expect(differing).toBeLessThanOrEqual(1);
      // A differing turn may have been shaped already (for the active leaf's chain): then it is reused too.
      const fresh = [...keys].filter((k) => !seen.has(k)).length;
      expect(cache.stats.turnsProjected - before.turnsProjected).toBe(fresh);
      expect(cache.stats.turnsReused - before.turnsReused).toBe(keys.size - fresh);
      for (const k of keys) seen.add(k);
      // Payloads parsed: the newly shown chain entry and turn, never the chain again.
      expect(l.stats.entriesMaterialised - read).toBeLessThan(40);
      expect(v.messagePages.length).toBeGreaterThan(0);
      prevKeys = keys;
    }
  });

  it("a leaf's first costs parse each entry of its chain once (a tool result finds its call's name in the turn)", async () => {
    const { b, key, path } = await sessionOf(4000, 24);
    const apart = Ledger.fromBytes(readFileSync(path)); // counted apart: this one's entry cache stays cold
    const toolResults = chainToRoot(apart.index, apart.index.activeLeaf).filter((i) => {
      const e = apart.entry(i);
      return e.kind === 'message' && e.message.role === 'tool';
    }).length;
    expect(toolResults).toBeGreaterThan(100);
    await b.call('openSession', { key }, client);
    const l = ledgerOf(b, key);
    const read = l.stats.entriesMaterialised;
    await view(b, key, null); // (after the rest of the file, if the open answered early)
    const chain = chainToRoot(l.index, l.index.activeLeaf);
    expect(chain.length).toBe(chainToRoot(apart.index, apart.index.activeLeaf).length);
    // The first screen's messages (their bodies: ~200 chain items and messages) are read again.
    expect(l.stats.entriesMaterialised - read).toBeLessThan(chain.length + 300);
  });

  it("a first open's active leaf costs its closed turns from what the reader noted, not from a second parse", async () => {
    const { b, key, path } = await sessionOf(4000, 25);
    await b.call('openSession', { key }, client);
    await b.cache.acquireWhole(key);
    // The deferred hash check reads the whole file again in the background: finish it first
    // (warnings wait for it), so what is counted below is the leaf's reading alone.
    await b.call('getWarnings', { key }, client);
    const l = ledgerOf(b, key);
    const whole = l.stats.bytesRead;
    await view(b, key, null);
    // It reads the first screen's entries and the few messages spread over the chain that it
    // shapes again (~10 % of this 7.5 MB file), not the file around each of those (a 256 KB window
    // read ahead for each one read 55 % of the file again: line-window.ts).
    expect(l.stats.bytesRead - whole).toBeLessThan(statSync(path).size * 0.15);
    const { turnsProjected, turnsNoted } = turnCacheOf(l).stats;
    expect(turnsProjected).toBeGreaterThan(100);
    expect(b.coreWork().turnsNoted).toBe(turnsNoted);
    expect(turnsNoted).toBe(turnsProjected);
  });

  it("a first open's work fold parses no work entry again (the reader noted them)", async () => {
    const { b, key } = await sessionOf(4000, 26);
    await b.call('openSession', { key }, client);
    await b.cache.acquireWhole(key);
    const info = (await b.call('openSession', { key }, client)) as SessionInfo;
    const l = ledgerOf(b, key);
    const chain = chainToRoot(l.index, l.index.activeLeaf);
    const work = chain.filter((i) => l.index.kind[i] === KIND.work).length;
    expect(work).toBeGreaterThan(100);
    expect(info.work.count).toBeGreaterThan(20);
    // What the open parsed from lines: its header, child runs and the like, never the chain's work entries.
    expect(l.stats.entriesMaterialised).toBeLessThan(20);
  });

  it('an open carries the work items’ summary only; getWork answers the items the fold gives, and reads nothing', async () => {
    const { b, key, path } = await sessionOf(4000, 26);
    await b.call('openSession', { key }, client);
    await b.cache.acquireWhole(key);
    // (Asked again once the whole file is read: the first answer may be of its first bytes.)
    const again = (await b.call('openSession', { key }, client)) as SessionInfo;
    // The answer names no item: only the count and the newest work entry folded.
    expect(JSON.stringify(again)).not.toContain('"work_id"');
    const l = ledgerOf(b, key);
    const read = [l.stats.bytesRead, l.stats.entriesMaterialised];
    const work = (await b.call('getWork', { key }, client)) as WorkItems;
    // Folded already by the open: the items cost no read and no parse.
    expect([l.stats.bytesRead, l.stats.entriesMaterialised]).toEqual(read);
    // The items the open used to carry: the active chain's fold, read apart from the backend.
    const apart = Ledger.fromBytes(readFileSync(path));
    const chain = chainToRoot(apart.index, apart.index.activeLeaf);
    const want = foldWork(apart, chain);
    expect(work.key).toBe(key);
    expect(work.items).toEqual(want);
    expect(work.work).toEqual({ count: want.length, newest: again.work.newest });
    const newestOnChain = [...chain].filter((i) => apart.index.kind[i] === KIND.work).pop();
    expect(again.work.newest).toBe(apart.index.ids[newestOnChain ?? -1]);
    // An open of the unchanged session (a reload's) neither folds nor clips the items again.
    const kept = b.cache.peek(key)?.work?.fold;
    expect(kept?.items).toHaveLength(want.length);
    expect(((await b.call('openSession', { key }, client)) as SessionInfo).work).toEqual(again.work);
    expect(b.cache.peek(key)?.work?.fold).toBe(kept);
  });

  it('a sibling leaf shapes only the turns it does not share', async () => {
    const { b, key } = await sessionOf(4000, 22);
    await view(b, key, null);
    const l = ledgerOf(b, key);
    const cache = turnCacheOf(l);
    const leaves = l.index.leaves();
    expect(leaves.length).toBeGreaterThan(3);
    const seen = new Set<string>(closedTurnKeys(l, l.index.activeLeaf));
    for (const leaf of leaves.slice(-6)) {
      const before = cache.stats.turnsProjected;
      await view(b, key, l.index.ids[leaf]);
      const keys = closedTurnKeys(l, leaf);
      const fresh = [...keys].filter((k) => !seen.has(k)).length;
      expect(cache.stats.turnsProjected - before).toBe(fresh);
      for (const k of keys) seen.add(k);
    }
  });

  it('an append reads only the appended bytes and re-shapes no closed turn', async () => {
    const { b, key, path } = await sessionOf(3000, 23);
    await b.call('subscribe', { topic: 'session', key }, client);
    const v0 = await view(b, key, null);
    // A session over FIRST_READ_BYTES is read in steps; the step that tells followers the reading
    // ended may still be queued (it checks the last line again), and its hash chain is checked
    // after it (reading the lines back once): let both pass before counting.
    const untilRead = Date.now() + 20_000;
    const done = (): boolean =>
      events.some((e) => e.type === 'session' && e.key === key && e.reading === null) &&
      events.some((e) => e.type === 'session' && e.key === key && e.change === 'checked');
    while (!done() && Date.now() < untilRead) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(done()).toBe(true);
    const l = ledgerOf(b, key);
    const cache = turnCacheOf(l);
    const ix = l.index;
    const lastLine = ix.length[ix.count - 1] + 1;
    const bytes0 = l.stats.bytesRead;
    const checked0 = l.bytesChecked;
    const lines0 = l.stats.linesParsed;
    const line =
      JSON.stringify({
        id: 'appended-1',
        parent_id: v0.leaf,
        ts: '2026-12-01T00:00:00.000Z',
        prev_hash: l.lastLineHash,
        kind: 'message',
        message: { role: 'user', content: [{ type: 'text', text: 'one more directive' }] },
      }) + '\n';
    appendFileSync(path, line);
    // A wait, not a timing claim: the watcher may be slow on a loaded machine (the test times out at 30 s).
    // The event of this very append (a first read's steps are announced as appends too).
    const announced = (): boolean =>
      events.some((e) => e.type === 'session' && e.change === 'appended' && e.newIds.includes('appended-1'));
    const deadline = Date.now() + 20_000;
    while (!announced() && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(announced()).toBe(true);
    // The new line (indexed, then read back once for the delta's row text), plus the last
    // line already read (the append-only check), and the new last line once more when a second
    // look (the watcher's event and the rescan's) checks it: no other byte of the file.
    const read = l.stats.bytesRead - bytes0;
    expect(read).toBeGreaterThanOrEqual(Buffer.byteLength(line));
    expect(read).toBeLessThanOrEqual(3 * Buffer.byteLength(line) + lastLine);
    expect(l.stats.linesParsed - lines0).toBe(1);
    // The watcher's event for the same append once more (a burst split in two, or the rescan's):
    // nothing was written since the append was read, so only its last line is read again (the
    // append-only check), not the whole file to compare (nor to check, which is not in `stats`).
    const again = l.stats.bytesRead;
    expect(await b.cache.refresh(key, true)).toEqual({ kind: 'unchanged' });
    // (Twice when the watcher's own second event comes meanwhile.)
    expect(l.stats.bytesRead - again).toBeGreaterThanOrEqual(Buffer.byteLength(line));
    expect(l.stats.bytesRead - again).toBeLessThanOrEqual(2 * Buffer.byteLength(line));
    expect(l.bytesChecked - checked0).toBe(0);
    // The new active leaf: every closed turn of the old view comes from the cache; only the
    // turn the new directive closed is shaped.
    const before = { ...cache.stats };
    const v1 = await view(b, key, null);
    expect(v1.leaf).toBe('appended-1');
    expect(cache.stats.turnsProjected - before.turnsProjected).toBeLessThanOrEqual(1);
    expect(cache.stats.turnsReused - before.turnsReused).toBeGreaterThanOrEqual(v0.plan.turns);
  });

  it('a page of the projected pane shapes only the turns it shows', async () => {
    const { b, key } = await sessionOf(4000, 24);
    const v = await view(b, key, null);
    const l = ledgerOf(b, key);
    const parsed = l.stats.entriesMaterialised;
    const mid = Math.floor(v.messageCount / 2);
    const page = (await b.call(
      'getProjectedMessages',
      { key, leaf: null, plan: 'none', profile: DEFAULT_PROFILE, overrides: {}, start: mid, count: 20 },
      client,
    )) as ProjectedMessages;
    expect(page.messages).toHaveLength(20);
    const turns = new Set(page.messages.map((m) => m.turn_id));
    // At most the entries of the turns on the page (and their tool names' calls) are parsed.
    expect(l.stats.entriesMaterialised - parsed).toBeLessThanOrEqual(turns.size * 60);
    expect(l.stats.entriesMaterialised - parsed).toBeLessThan(l.index.count / 10);
  });
});
