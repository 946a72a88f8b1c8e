import { execFileSync } from 'node:child_process';
import { hash } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateSession } from '../../generator';
import { Ledger } from '../core/ledger';
import { useTempDir } from '../../test-support/temp-dir';
import { activeWork } from '../api/session-info';
import { chainToRoot } from '../core/chain';
import { TreeLayout } from '../core/tree-layout';
import { planLeaf, projectionOf } from '../core/leaf-plan';
import { turnCacheOf } from '../core/turn-cache';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { IndexStore } from './index-store';
import { SessionCache } from './session-cache';

const tmp = useTempDir();
const KEY = 'agents/vak/sessions/h/s.jsonl';
const caches: SessionCache[] = [];
// Closed as the app closes them: the index writes still in flight end before the folder is removed.
afterEach(async () => {
  await Promise.all(caches.splice(0).map((c) => c.close()));
  vi.restoreAllMocks();
});

/** A home with one ~1.5 MiB generated session, and a user data folder beside it. */
function setup(): { home: string; file: string; store: string; bytes: Buffer } {
  const root = tmp();
  const home = join(root, 'home');
  mkdirSync(join(home, 'agents/vak/sessions/h'), { recursive: true });
  const g = generateSession({ seed: 3, bytes: 1_500_000, cwd: '/home/ana/projects/vak', branchChance: 0.05 });
  const file = join(home, KEY);
  writeFileSync(file, g.bytes);
  return { home, file, store: join(root, 'data', 'index-cache'), bytes: g.bytes };
}

function cacheOf(home: string, store: string, opts: { maxTotalBytes?: number } = {}): SessionCache {
  const c = new SessionCache(home, 4, new IndexStore(store, opts), 0);
  caches.push(c);
  return c;
}

/** What the explorer shows of a ledger: warnings (order included), active leaf, counts, the tree. */
function reading(l: Ledger): unknown {
  const ix = l.index;
  return {
    warnings: l.warnings(),
    activeLeaf: ix.ids[ix.activeLeaf],
    count: ix.count,
    lines: l.linesRead,
    leaves: ix.leaves(),
    branchPoints: ix.branchPoints(),
    parents: [...ix.parent.subarray(0, ix.count)],
    children: Array.from({ length: ix.count }, (_, i) => ix.childCount[i]),
    last: l.lastPhysicalLine(),
  };
}

/** A full read of the file now, without any kept index. */
async function fullReading(home: string): Promise<unknown> {
  const c = new SessionCache(home, 4);
  caches.push(c);
  return reading((await c.acquire(KEY)).ledger);
}

/** A valid line appended to the file, child of `last` (by default the file's last line); its length. */
function appendLine(
  file: string,
  id: string,
  last = lastLineOf(file),
  body: Record<string, unknown> = {
    kind: 'message',
    message: { role: 'user', content: [{ type: 'text', text: 'appended' }] },
  },
): number {
  const line =
    JSON.stringify({
      id,
      parent_id: (JSON.parse(last) as { id: string }).id,
      ts: '2026-12-01T00:00:00.000Z',
      prev_hash: hash('sha256', last, 'hex'),
      ...body,
    }) + '\n';
  appendFileSync(file, line);
  return Buffer.byteLength(line);
}

function lastLineOf(file: string): string {
  const text = readFileSync(file, 'utf8');
  return text.slice(text.lastIndexOf('\n', text.length - 2) + 1, -1);
}

async function openAndKeep(home: string, store: string): Promise<Ledger> {
  const c = cacheOf(home, store);
  const s = await c.acquire(KEY);
  await c.flushKept();
  return s.ledger;
}

describe('kept indexes: a reopen reads only what was appended', () => {
  it('keeps a verified index in the user data folder, never beside the ledger', async () => {
    const { home, store } = setup();
    await openAndKeep(home, store);
    expect(readdirSync(store).filter((f) => f.endsWith('.vkix'))).toHaveLength(1);
    expect(readdirSync(join(home, 'agents/vak/sessions/h'))).toEqual(['s.jsonl']);
  });

  it('a reopen reads the kept last line and the appended bytes only, and shows what a full read shows', async () => {
    const { home, file, store } = setup();
    const first = await openAndKeep(home, store);
    expect(first.stats.bytesRead).toBe(statSync(file).size);
    const lastLine = first.index.length[first.index.activeLeaf] + 1;

    const same = (await cacheOf(home, store).acquire(KEY)).ledger;
    expect(same.stats.bytesRead).toBe(lastLine);
    expect(same.stats.linesParsed).toBe(0);
    // Its ids increase (UUIDv7): looked up by binary search, never put in a map.
    expect(reading(same)).toEqual(await fullReading(home));
    expect(same.index.mappedIds).toBe(0);

    const appended = appendLine(file, 'after-1') + appendLine(file, 'after-2');
    const warn = vi.spyOn(console, 'warn');
    const later = (await cacheOf(home, store).acquire(KEY)).ledger;
    expect(later.stats.bytesRead).toBe(lastLine + appended);
    expect(later.stats.linesParsed).toBe(2);
    expect(reading(later)).toEqual(await fullReading(home));
    expect(later.index.ids[later.index.activeLeaf]).toBe('after-2');
    expect(later.index.mappedIds).toBe(0); // (the appended ids increase past the kept ones)
    expect(warn).not.toHaveBeenCalled();
  });

  it('a reopen whose ids do not increase answers before mapping them, and maps them between requests', async () => {
    const { home, file, store } = setup();
    appendLine(file, '00-sorts-first'); // (the generated ids are UUIDv7: this one is smaller)
    await openAndKeep(home, store);
    const same = (await cacheOf(home, store).acquire(KEY)).ledger;
    expect(same.stats.linesParsed).toBe(0);
    expect(same.index.mappedIds).toBe(0);
    expect(same.index.unmappedIds).toBe(same.index.count);
    for (let k = 0; k < 1000 && same.index.unmappedIds > 0; k++) await new Promise((r) => setImmediate(r));
    expect(same.index.mappedIds).toBe(same.index.count);
    expect(reading(same)).toEqual(await fullReading(home));
  });

  it('a reopen lays out only the entries read since, as a build of the whole index would', async () => {
    const { home, file, store } = setup();
    await openAndKeep(home, store);
    const sameLayout = (s: { ledger: Ledger; layout: TreeLayout }): void => {
      const built = TreeLayout.build(s.ledger.index);
      for (const fold of [false, true]) expect(s.layout.rows(0, 1e6, fold)).toEqual(built.rows(0, 1e6, fold));
    };
    const same = await cacheOf(home, store).acquire(KEY);
    expect(same.layout.placed).toBe(0);
    sameLayout(same);
    appendLine(file, 'after-1');
    appendLine(file, 'after-2');
    const later = await cacheOf(home, store).acquire(KEY);
    expect(later.layout.placed).toBe(2);
    sameLayout(later);
  });

  it("keeps the active chain's work fold: a reopen takes only the work entries appended since", async () => {
    const { home, file, store } = setup();
    const activeChain = (l: Ledger): Int32Array => chainToRoot(l.index, l.index.activeLeaf);
    const c = cacheOf(home, store);
    const s = await c.acquire(KEY);
    const kept = activeWork(s, activeChain(s.ledger)); // what openSession sends, before the index is kept
    expect(kept.length).toBeGreaterThan(3);
    await c.flushKept();

    appendLine(file, 'work-after', lastLineOf(file), {
      kind: 'work',
      work: { work_id: kept[0].work_id, event: 'resumed', state: 'running', detail: 'again' },
    });
    appendLine(file, 'message-after');
    const again = await cacheOf(home, store).acquire(KEY);
    const parsed = again.ledger.stats.entriesMaterialised;
    const taken = vi.spyOn(again.ledger, 'workEvent');
    const work = activeWork(again, activeChain(again.ledger));
    expect(taken).toHaveBeenCalledTimes(1); // the appended work entry only
    expect(again.ledger.stats.entriesMaterialised - parsed).toBe(0); // noted as the reopen read it

    const whole = await new SessionCache(home, 4).acquire(KEY);
    const expected = activeWork(whole, activeChain(whole.ledger));
    whole.ledger.close();
    expect(work).toEqual(expected);
    expect(work[0]).toMatchObject({ work_id: kept[0].work_id, last_event: 'resumed', events: kept[0].events + 1 });
  });

  it("keeps the closed turns' costs: a reopen's first leaf shapes none of them again, and plans the same", async () => {
    const { home, store } = setup();
    const opts = { plan: 'auto', profile: DEFAULT_PROFILE } as const;
    const c = cacheOf(home, store);
    const s = await c.acquire(KEY);
    const first = planLeaf(s.ledger, s.ledger.index.activeLeaf, opts);
    const shaped = turnCacheOf(s.ledger).stats.turnsProjected;
    expect(shaped).toBeGreaterThan(10);
    await c.flushKept();

    const again = await cacheOf(home, store).acquire(KEY);
    expect(again.keptTurns).toBe(turnCacheOf(s.ledger).size);
    const plan = planLeaf(again.ledger, again.ledger.index.activeLeaf, opts);
    expect(turnCacheOf(again.ledger).stats.turnsProjected).toBe(0);
    expect(turnCacheOf(again.ledger).stats.turnsReused).toBeGreaterThanOrEqual(shaped);
    expect(projectionOf(plan, [])).toEqual(projectionOf(first, []));
    expect(plan.messages(0, plan.messageCount)).toEqual(first.messages(0, first.messageCount));
  });

  it('a session evicted before its index was kept is kept as it leaves (and a removed one is not)', async () => {
    const { home, file, store } = setup();
    const other = 'agents/vak/sessions/h/t.jsonl';
    writeFileSync(join(home, other), readFileSync(file));
    const c = new SessionCache(home, 1, new IndexStore(store), 60_000); // keeps would wait a minute
    caches.push(c);
    await c.acquire(KEY);
    expect(existsSync(store)).toBe(false);
    await c.acquire(other); // evicts KEY
    await c.flushKept(); // waits for the writes in flight (and keeps `other` now)
    expect(readdirSync(store).filter((f) => f.endsWith('.vkix'))).toHaveLength(2);
    const again = (await cacheOf(home, store).acquire(KEY)).ledger;
    expect(again.stats.linesParsed).toBe(0); // from the kept index

    const third = 'agents/vak/sessions/h/u.jsonl';
    writeFileSync(join(home, third), readFileSync(file));
    const d = new SessionCache(home, 4, new IndexStore(store), 60_000);
    caches.push(d);
    await d.acquire(third);
    d.drop(third); // as when its file is removed: the pending keep goes with it
    await d.flushKept();
    expect(readdirSync(store).filter((f) => f.endsWith('.vkix'))).toHaveLength(2);
  });

  it('a file with a torn tail and damage appended since reads the same as a full read', async () => {
    const { home, file, store } = setup();
    await openAndKeep(home, store);
    const last = lastLineOf(file);
    appendFileSync(file, '{"not json\n');
    appendLine(file, 'after-torn', last);
    appendFileSync(file, '{"id":"half');
    const l = (await cacheOf(home, store).acquire(KEY)).ledger;
    const full = await fullReading(home);
    expect(reading(l)).toEqual(full);
    expect(l.warnings().map((w) => w.code)).toEqual(
      expect.arrayContaining(['torn_line', 'hash_mismatch', 'unterminated_tail']),
    );
  });

  it.each([
    ['truncated', (file: string, bytes: Buffer) => truncateSync(file, bytes.length - 10), /shrank/],
    [
      'last line rewritten in place',
      (file: string, bytes: Buffer) => {
        const b = Buffer.from(bytes);
        b[b.length - 20] = b[b.length - 20] === 0x41 ? 0x42 : 0x41;
        writeFileSync(file, b);
      },
      /last line kept has changed/,
    ],
    [
      'replaced by another file (rename)',
      (file: string, bytes: Buffer) => {
        writeFileSync(file + '.new', bytes);
        renameSync(file + '.new', file);
      },
      /replaced/,
    ],
  ])('a file %s is read whole again, with the reason logged', async (_name, change, reason) => {
    const { home, file, store, bytes } = setup();
    await openAndKeep(home, store);
    change(file, bytes);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const l = (await cacheOf(home, store).acquire(KEY)).ledger;
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(reason);
    expect(l.stats.bytesRead).toBeGreaterThanOrEqual(statSync(file).size);
    expect(reading(l)).toEqual(await fullReading(home));
  });

  it('a damaged or foreign kept index file is ignored (and removed), never trusted', async () => {
    const { home, file, store } = setup();
    await openAndKeep(home, store);
    const kept = join(store, readdirSync(store)[0]);
    const b = readFileSync(kept);
    b[b.length >> 1] ^= 0xff;
    writeFileSync(kept, b);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const l = (await cacheOf(home, store).acquire(KEY)).ledger;
    expect(String(warn.mock.calls[0][0])).toMatch(/checksum/);
    expect(l.stats.bytesRead).toBe(statSync(file).size);
    expect(existsSync(kept)).toBe(false);
    expect(reading(l)).toEqual(await fullReading(home));
  });

  it('keeps nothing for an index holding an id UTF-8 cannot carry (a lone surrogate)', async () => {
    const { file, store } = setup();
    const l = Ledger.openSync(file);
    try {
      const st = new IndexStore(store, { minBytes: 0 });
      const key = { realPath: file, dev: 1, ino: 2 };
      l.index.ids[1] = 'id-\uD800';
      expect(await st.keep(l, key)).toBe(false);
      expect(existsSync(st.fileFor(file))).toBe(false);
      l.index.ids[1] = 'id-\uD83D\uDE00'; // a pair: kept
      expect(await st.keep(l, key)).toBe(true);
      expect(existsSync(st.fileFor(file))).toBe(true);
    } finally {
      l.close();
    }
  });

  it('a FIFO where the kept index would be is not opened (no hang): the file is read whole', async () => {
    const { home, file, store } = setup();
    mkdirSync(store, { recursive: true });
    execFileSync('mkfifo', [new IndexStore(store).fileFor(file)]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const l = (await cacheOf(home, store).acquire(KEY)).ledger;
    expect(l.stats.bytesRead).toBe(statSync(file).size);
    expect(String(warn.mock.calls[0][0])).toMatch(/not a regular file/);
  });

  it('keeps nothing for small files, and bounds the folder (least recently used removed)', async () => {
    const { home, file, store } = setup();
    const small = join(home, 'agents/vak/sessions/h/small.jsonl');
    writeFileSync(small, readFileSync(file).subarray(0, 200_000));
    const c = cacheOf(home, store);
    await c.acquire('agents/vak/sessions/h/small.jsonl');
    await c.flushKept();
    expect(existsSync(store)).toBe(false);
    await openAndKeep(home, store);
    const one = statSync(join(store, readdirSync(store)[0])).size;
    // Room for one: keeping a second session's index removes the older one.
    writeFileSync(join(home, 'agents/vak/sessions/h/t.jsonl'), readFileSync(file));
    const bounded = cacheOf(home, store, { maxTotalBytes: one + 100 });
    await bounded.acquire('agents/vak/sessions/h/t.jsonl');
    await bounded.flushKept();
    expect(readdirSync(store)).toHaveLength(1);
    expect(readdirSync(store)[0]).toBe(
      new IndexStore(store).fileFor(join(home, 'agents/vak/sessions/h/t.jsonl')).split('/').pop(),
    );
  });
});
