import { createHash } from 'node:crypto';
import { appendFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, SessionDelta, SessionInfo, TreeRow, TreeRowsResult } from '../../shared/api';
import { useTempDir } from '../../test-support/temp-dir';
import { Ledger } from '../core/ledger';
import type { ApiClient } from './api-backend';
import { ExplorerBackend } from './explorer-backend';
import { makeWritable } from '../../test-support/make-writable';

const FIXTURES = join(__dirname, '../../../../shared/fixtures');
const BIG = 'agents/vak/sessions/70929a3c84065db2/01a1f7f8-3000-7bce-9f84-9a13f02868af.jsonl';
const tempDir = useTempDir('vak-delta-');
const open: ExplorerBackend[] = [];
afterEach(async () => {
  for (const b of open.splice(0)) await b.close();
});

async function allRows(b: ExplorerBackend, c: ApiClient, foldAudit: boolean): Promise<TreeRow[]> {
  const out: TreeRow[] = [];
  for (;;) {
    const r = (await b.call(
      'getTreeRows',
      { key: BIG, start: out.length, count: 5000, foldAudit },
      c,
    )) as TreeRowsResult;
    out.push(...r.rows);
    if (out.length >= r.total || r.rows.length === 0) return out;
  }
}

/** Appends entries under the given parents (messages unless `body` says otherwise), each hash-linked to the line before it. */
function appendLines(
  path: string,
  entries: { id: string; parent: string; text: string; body?: Record<string, unknown> }[],
): void {
  const l = Ledger.openSync(path);
  let prev = l.lastLineHash;
  l.close();
  let text = '';
  for (const e of entries) {
    const line = JSON.stringify({
      id: e.id,
      parent_id: e.parent,
      ts: '2026-12-01T00:00:00.000Z',
      prev_hash: prev,
      ...(e.body ?? { kind: 'message', message: { role: 'user', content: [{ type: 'text', text: e.text }] } }),
    });
    // prev_hash links to the previous physical line (§2): sha256 of its bytes.
    prev = createHash('sha256').update(line).digest('hex');
    text += line + '\n';
  }
  appendFileSync(path, text);
}

describe('appended events carry a delta', () => {
  it('patching the rows held before with the delta gives exactly the rows after, folded and not', async () => {
    const home = join(tempDir(), 'home');
    cpSync(join(FIXTURES, 'demo-home'), home, { recursive: true });
    makeWritable(home);
    const b = await ExplorerBackend.create({ home, isDemo: false, label: 'test', lockPollMs: 0, rescanMs: 100 });
    open.push(b);
    const events: ApiEvent[] = [];
    const c: ApiClient = { id: 'delta', push: (e) => events.push(e) };
    await b.call('subscribe', { topic: 'session', key: BIG }, c);
    const before = { plain: await allRows(b, c, false), folded: await allRows(b, c, true) };
    // A new branch from an early entry (its line passes through every row below it), then a reply.
    const early = before.plain[3].id;
    appendLines(join(home, BIG), [
      { id: 'delta-1', parent: early, text: 'a new branch from early on' },
      { id: 'delta-2', parent: 'delta-1', text: 'and a second entry under it' },
    ]);
    const deadline = Date.now() + 5000;
    let delta: SessionDelta | undefined;
    while (!delta && Date.now() < deadline) {
      for (const e of events) if (e.type === 'session' && e.change === 'appended' && e.delta) delta = e.delta;
      await new Promise((r) => setTimeout(r, 10));
    }
    if (!delta) throw new Error('no appended event with a delta');
    expect(delta).toMatchObject({ firstNewIndex: before.plain.length, newEntries: 2, addedLeaves: ['delta-2'] });
    expect(delta.endedLeaves).toEqual([]); // the early entry had children already
    const after = { plain: await allRows(b, c, false), folded: await allRows(b, c, true) };
    expect(delta.rowCount).toBe(after.plain.length);
    expect(delta.foldedRowCount).toBe(after.folded.length);
    for (const [mode, rows, start, range, fresh] of [
      ['plain', before.plain, delta.firstNewIndex, delta.redraw, delta.rows],
      ['folded', before.folded, delta.foldedFirstRow, delta.redrawFolded, delta.foldedRows],
    ] as const) {
      const now = mode === 'plain' ? after.plain : after.folded;
      const patched = rows.slice(0, start).map((r, k) => (k >= range.start && k < range.end ? now[k] : r));
      expect(fresh).not.toBeNull();
      patched.push(...(fresh ?? []));
      expect(patched).toEqual(now);
      // The redraw range is what changed, not the whole tree above the new rows.
      expect(range.start).toBeGreaterThanOrEqual(mode === 'plain' ? 3 : 0);
    }
  });

  it('carries the counts it changes: branch points, usage and work equal a fresh open’s (work only when it can change)', async () => {
    const home = join(tempDir(), 'home');
    cpSync(join(FIXTURES, 'demo-home'), home, { recursive: true });
    makeWritable(home);
    const b = await ExplorerBackend.create({ home, isDemo: false, label: 'test', lockPollMs: 0, rescanMs: 100 });
    open.push(b);
    const events: ApiEvent[] = [];
    const c: ApiClient = { id: 'counts', push: (e) => events.push(e) };
    await b.call('subscribe', { topic: 'session', key: BIG }, c);
    const info0 = (await b.call('openSession', { key: BIG }, c)) as SessionInfo;
    const rows = await allRows(b, c, false);
    const nextDelta = async (id: string): Promise<SessionDelta> => {
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        for (const e of events) if (e.type === 'session' && e.newIds.includes(id) && e.delta) return e.delta;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`no delta for ${id}`);
    };
    const fresh = async (): Promise<SessionInfo> => {
      const other = await ExplorerBackend.create({ home, isDemo: false, label: 't', lockPollMs: 0, watch: false });
      open.push(other);
      return (await other.call('openSession', { key: BIG }, { id: 'f', push: () => undefined })) as SessionInfo;
    };
    // 1. An assistant message with usage extending the active chain: no work can change.
    const leaf = info0.activeLeaf ?? '';
    appendLines(join(home, BIG), [
      {
        id: 'counts-1',
        parent: leaf,
        text: '',
        body: {
          kind: 'message',
          message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
          meta: { usage: { input_tokens: 1000, output_tokens: 50, cache_read_tokens: 7, cache_write_tokens: 3 } },
        },
      },
    ]);
    const d1 = await nextDelta('counts-1');
    let now = await fresh();
    expect(d1.usage).toEqual(now.usage);
    expect(d1.usage.activeChain.input_tokens).toBeGreaterThan(info0.usage.activeChain.input_tokens);
    expect(d1.work).toBeNull();
    expect(d1.leafCount).toBe(now.leaves);
    expect(info0.branchPoints + d1.branchPointsAdded).toBe(now.branchPoints);
    // 2. A fork from an entry with one child (a new branch point) whose new leaf is active, and a work event.
    const single = rows.find((r) => r.children === 1 && r.index > 5);
    if (!single) throw new Error('no entry with one child');
    appendLines(join(home, BIG), [
      { id: 'counts-2', parent: single.id, text: 'try it another way' },
      {
        id: 'counts-3',
        parent: 'counts-2',
        text: '',
        body: { kind: 'work', work: { work_id: 'w-delta', event: 'started', state: { step: 1 } } },
      },
    ]);
    const d2 = await nextDelta('counts-3');
    now = await fresh();
    expect(d2.branchPointsAdded).toBe(1);
    expect(info0.branchPoints + d1.branchPointsAdded + d2.branchPointsAdded).toBe(now.branchPoints);
    expect(d2.usage).toEqual(now.usage);
    expect(d2.work).toEqual(now.work);
    expect(d2.leafCount).toBe(now.leaves);
    expect(d2.work?.newest).toBe('counts-3');
    // 3. Two more on the new active chain, one with usage: the totals are the last delta's plus
    // theirs (not summed whole again), and still a fresh open's.
    appendLines(join(home, BIG), [
      {
        id: 'counts-4',
        parent: 'counts-3',
        text: '',
        body: {
          kind: 'message',
          message: { role: 'assistant', content: [{ type: 'text', text: 'again' }] },
          meta: { usage: { input_tokens: 2000, output_tokens: 70, cache_read_tokens: 11 } },
        },
      },
      { id: 'counts-5', parent: 'counts-4', text: 'and on' },
    ]);
    const d3 = await nextDelta('counts-5');
    now = await fresh();
    expect(d3.usage).toEqual(now.usage);
    expect(d3.usage.activeChain.messages).toBe(d2.usage.activeChain.messages + 1);
    expect(d3.usage.allBranches.input_tokens).toBe(d2.usage.allBranches.input_tokens + 2000);
  });
});
