/**
 * openSession's entry figures (branch points, leaves, usage totals, the work summary, child runs,
 * the header) are kept per reading and taken in one pass: its answer must stay the one computed
 * from scratch, on real files, for a second client, from a kept index in a fresh backend, after an
 * append and after a rewrite in place that keeps the entry count and the active leaf (a new
 * generation, where a kept value would still match on count and leaf).
 */
import {
  appendFileSync,
  closeSync,
  cpSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  statSync,
  writeSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../shared/api';
import { chainToRoot } from '../core/chain';
import { Ledger } from '../core/ledger';
import { KIND } from '../core/ledger-index';
import { usageTotals } from '../core/usage';
import type { SessionCache } from '../library/session-cache';
import { foldWork } from '../core/work-fold';
import { FIXTURES } from '../../test-support/fixtures';
import { useTempDir } from '../../test-support/temp-dir';
import type { ApiClient } from './api-backend';
import { ExplorerBackend } from './explorer-backend';
import { generateSession } from '../../generator/session-generator';
import { RecordingClient } from '../../test-support/recording-client';

const tmp = useTempDir('vak-open-figures-');
const backends: ExplorerBackend[] = [];
afterEach(async () => {
  for (const b of backends.splice(0)) await b.close();
});

const DIR = 'agents/vak/sessions/70929a3c84065db2';
const GENERATED = `${DIR}/01a1f7f8-3000-7bce-9f84-000000000001.jsonl`;
/** Past the index store's least size: its index is kept. */
const BIG = `${DIR}/01a1f7f8-3000-7bce-9f84-000000000002.jsonl`;

/** Lines chained by §2's hashes, after `prev` (the file's last line's hash, or null for a new file). */
function lines(entries: Record<string, unknown>[], prev: string | null): string {
  let out = '';
  for (const e of entries) {
    const line = JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', prev_hash: prev, ...e });
    prev = createHash('sha256').update(line).digest('hex');
    out += line + '\n';
  }
  return out;
}

const ask = (id: string, parent: string, text: string): Record<string, unknown> => ({
  id,
  parent_id: parent,
  kind: 'message',
  message: { role: 'user', content: [{ type: 'text', text }] },
});
const answer = (id: string, parent: string, input: number): Record<string, unknown> => ({
  id,
  parent_id: parent,
  kind: 'message',
  message: { role: 'assistant', content: [{ type: 'text', text: `answer ${id}` }] },
  meta: { model: 'm', usage: { input_tokens: input, output_tokens: 10, cache_read_tokens: 3 } },
});
const work = (id: string, parent: string, workId: string, event: string): Record<string, unknown> => ({
  id,
  parent_id: parent,
  kind: 'work',
  work: { work_id: workId, event, state: { step: event } },
});

/**
 * A session of `turns` turns whose ids do not increase (the id map is what a lookup by id needs),
 * a work entry every fifth turn (three work ids), a child run, and a side branch every seventh
 * turn (an answer with usage off the active chain).
 */
function generated(turns: number): string {
  const es: Record<string, unknown>[] = [
    { id: 'h', parent_id: null, kind: 'header', system_prompt: 'system', tools: [], cwd: '/home/ana/p', model: 'm' },
  ];
  let parent = 'h';
  for (let k = 1; k <= turns; k++) {
    const n = String(turns - k).padStart(4, '0'); // decreasing ids
    es.push(ask(`z${n}`, parent, `ask ${k}`), answer(`y${n}`, `z${n}`, 100 + k));
    parent = `y${n}`;
    if (k % 7 === 0) es.push(answer(`s${n}`, `z${n}`, 5000 + k));
    if (k % 5 === 0) {
      es.push(work(`w${n}`, parent, `w-${k % 3}`, k % 10 === 0 ? 'done' : 'started'));
      parent = `w${n}`;
    }
    if (k === 12) {
      es.push({
        id: `c${n}`,
        parent_id: parent,
        kind: 'child_run',
        child_run: { child_session_id: 'child-1', agent: 'reviewer', outcome: 'ok' },
      });
      parent = `c${n}`;
    }
  }
  return lines(es, null);
}

/** The figures as openSession computed them before they were kept, from the file read whole here. */
function fromScratch(path: string): unknown {
  const l = Ledger.openSync(path);
  try {
    const ix = l.index;
    const chain = ix.count > 0 ? chainToRoot(ix, ix.activeLeaf) : new Int32Array(0);
    const items = foldWork(l, chain);
    let newest = -1;
    for (const w of items) newest = Math.max(newest, l.indexOf(w.last_entry) ?? -1);
    const childRuns: unknown[] = [];
    for (let i = 0; i < ix.count; i++) {
      if (ix.kind[i] !== KIND.child_run) continue;
      const e = l.entry(i);
      if (e.kind !== 'child_run') continue;
      const c = e.child_run;
      childRuns.push({ entryId: ix.ids[i], childSessionId: c.child_session_id, agent: c.agent, outcome: c.outcome });
    }
    const h = ix.header >= 0 ? l.entry(ix.header) : null;
    return {
      header:
        h?.kind === 'header'
          ? {
              entryId: h.id,
              sessionId: h.session_id,
              model: h.model,
              provider: h.provider,
              cwd: h.cwd,
              appVersion: h.app_version,
              permissionMode: h.permission_mode,
            }
          : null,
      entryCount: ix.count,
      activeLeaf: ix.count > 0 ? ix.ids[ix.activeLeaf] : null,
      branchPoints: ix.branchPoints().length,
      leaves: ix.leaves().length,
      usage: { activeChain: usageTotals(l, chain), allBranches: usageTotals(l, 'all') },
      work: { count: items.length, newest: newest < 0 ? null : ix.ids[newest] },
      childRuns,
    };
  } finally {
    l.close();
  }
}

/** The same figures of an answer, in the answer's own order (JSON compared as sent). */
function figures(info: SessionInfo): unknown {
  return {
    header: info.header,
    entryCount: info.entryCount,
    activeLeaf: info.activeLeaf,
    branchPoints: info.branchPoints,
    leaves: info.leaves,
    usage: info.usage,
    work: info.work,
    childRuns: info.childRuns.map(({ key: _k, ...c }) => c),
  };
}

async function backend(home: string, userDataDir?: string): Promise<ExplorerBackend> {
  const b = await ExplorerBackend.create({
    home,
    isDemo: false,
    label: 't',
    watch: userDataDir === undefined,
    rescanMs: 0,
    lockPollMs: 0,
    firstReadBytes: Infinity,
    ...(userDataDir === undefined ? {} : { userDataDir }),
  });
  backends.push(b);
  return b;
}

const openInfo = async (b: ExplorerBackend, key: string, c: ApiClient): Promise<SessionInfo> =>
  (await b.call('openSession', { key }, c)) as SessionInfo;

/** A home holding every shared fixture, the demo home's sessions and a generated session. */
function home(): { home: string; keys: string[] } {
  const dir = tmp();
  const home = join(dir, 'home');
  cpSync(join(FIXTURES, 'demo-home'), home, { recursive: true });
  const keys: string[] = [];
  const walk = (rel: string): void => {
    for (const f of readdirSync(join(home, rel), { withFileTypes: true })) {
      const r = rel === '' ? f.name : `${rel}/${f.name}`;
      if (f.isDirectory()) walk(r);
      else if (f.name.endsWith('.jsonl')) keys.push(r);
    }
  };
  walk('');
  mkdirSync(join(home, DIR), { recursive: true });
  const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl'));
  fixtures.sort().forEach((f, k) => {
    const key = `${DIR}/01a1f7f8-3000-7bce-9f84-${String(100 + k).padStart(12, '0')}.jsonl`;
    cpSync(join(FIXTURES, f), join(home, key));
    keys.push(key);
  });
  appendFileSync(join(home, GENERATED), generated(300));
  keys.push(GENERATED);
  const big = generateSession({
    seed: 7,
    bytes: 1_500_000,
    cwd: '/home/ana/projects/vak',
    branchChance: 0.05,
    childRuns: [{ child_session_id: '01a1f82c-5b45-725c-805f-4b4c88f15899', agent: 'reviewer' }],
  });
  appendFileSync(join(home, BIG), big.bytes);
  keys.push(BIG);
  return { home, keys };
}

describe("openSession's entry figures", () => {
  it('equal those computed from scratch, for a second client and from a kept index in a fresh backend', async () => {
    const { home: h, keys } = home();
    const kept = join(tmp(), 'user-data');
    expect(keys.length).toBeGreaterThan(15);
    const b = await backend(h, kept);
    const c1 = new RecordingClient('c1');
    const c2 = new RecordingClient('c2');
    const first = new Map<string, string>();
    for (const key of keys) {
      const info = await openInfo(b, key, c1);
      expect(figures(info), key).toEqual(fromScratch(join(h, key)));
      first.set(key, JSON.stringify(info));
      expect(JSON.stringify(await openInfo(b, key, c2)), key).toBe(first.get(key));
    }
    // The generated sessions have what each figure counts.
    for (const key of [GENERATED, BIG]) {
      const g = JSON.parse(first.get(key)!) as SessionInfo;
      expect(g.branchPoints, key).toBeGreaterThan(2);
      expect(g.usage.allBranches.messages, key).toBeGreaterThan(g.usage.activeChain.messages);
      expect(g.work.count, key).toBeGreaterThan(2);
      expect(g.childRuns, key).toHaveLength(1);
    }
    await b.close();
    // The big one's index is kept at the close: a fresh backend resumes it from there (with its work fold).
    expect(readdirSync(join(kept, 'index-cache')).some((f) => f.endsWith('.vkix'))).toBe(true);
    const again = await backend(h, kept);
    for (const key of keys) {
      // (another reading of the file: its generation is a new one)
      const resumed = await openInfo(again, key, c1);
      expect(resumed.generation).not.toBe((JSON.parse(first.get(key)!) as SessionInfo).generation);
      const { generation } = JSON.parse(first.get(key)!) as SessionInfo;
      expect(JSON.stringify({ ...resumed, generation }), key).toBe(first.get(key));
      if (key !== BIG) continue;
      // (resumed: nothing read past the kept index, and the work fold came with it)
      const s = (again as unknown as { cache: SessionCache }).cache.peek(BIG)!;
      expect(s.ledger.stats.bytesRead).toBeLessThan(statSync(join(h, BIG)).size);
      expect(s.work?.fold.tip).toBe(s.ledger.index.activeLeaf);
    }
  });

  it('follow an append (usage, a fork, a work event) and a rewrite that keeps the count and the active leaf', async () => {
    const { home: h } = home();
    const file = join(h, GENERATED);
    const b = await backend(h);
    const c = new RecordingClient('c');
    await b.call('subscribe', { topic: 'session', key: GENERATED }, c);
    const before = await openInfo(b, GENERATED, c);
    expect(figures(before)).toEqual(fromScratch(file));

    const l = Ledger.openSync(file);
    const [tip, prev] = [l.index.ids[l.index.activeLeaf], l.lastLineHash];
    l.close();
    const appended = c.next((e) => e.type === 'session' && e.change === 'appended');
    appendFileSync(
      file,
      lines(
        [
          answer('n1', 'z0000', 777), // a fork off the chain: a new branch point and leaf
          ask('n2', tip, 'more'),
          answer('n3', 'n2', 888),
          work('n4', 'n3', 'w-1', 'reopened'),
        ],
        prev,
      ),
    );
    await appended;
    const after = await openInfo(b, GENERATED, c);
    expect(figures(after)).toEqual(fromScratch(file));
    expect(after.branchPoints).toBe(before.branchPoints + 1);
    expect(after.usage.allBranches.input_tokens).toBe(before.usage.allBranches.input_tokens + 777 + 888);
    expect(after.work.newest).toBe('n4');

    // Same size, same entries and active leaf: only the kept figures' generation tells them apart.
    const find = '"input_tokens":888,';
    const at = readFileSync(file).indexOf(find);
    expect(at).toBeGreaterThan(0);
    const reloaded = c.next((e) => e.type === 'session' && e.change === 'reloaded');
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.from('"input_tokens":999,'), 0, find.length, at);
    closeSync(fd);
    await reloaded;
    const rewritten = await openInfo(b, GENERATED, c);
    expect(figures(rewritten)).toEqual(fromScratch(file));
    expect(rewritten.entryCount).toBe(after.entryCount);
    expect(rewritten.activeLeaf).toBe(after.activeLeaf);
    expect(rewritten.usage.activeChain.input_tokens).toBe(after.usage.activeChain.input_tokens + 111);
  });
});
