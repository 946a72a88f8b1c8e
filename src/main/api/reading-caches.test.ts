/**
 * Every cache derived from a session's reading is derived again once the reading changes: here a
 * rewrite in place that keeps the file's size, its last line and its entry count (the change event
 * reads it again: a new generation). Each answer after it must equal a fresh backend's.
 */
import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LeafView, PlanTurns, TreeRowsResult } from '../../shared/api';
import type { SessionCost } from '../../shared/api-features';
import type { PackedContextSeries } from '../../shared/api-series';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { turnCacheOf } from '../core/turn-cache';
import { useTempDir } from '../../test-support/temp-dir';
import { ExplorerBackend } from './explorer-backend';
import { unpackSeries } from '../../shared/series-packed';
import { RecordingClient } from '../../test-support/recording-client';

const tmp = useTempDir('vak-reading-caches-');
const backends: ExplorerBackend[] = [];
afterEach(async () => {
  for (const b of backends.splice(0)) await b.close();
});

const KEY = 'agents/vak/sessions/70929a3c84065db2/01a1f7f8-3000-7bce-9f84-000000000001.jsonl';

/** h ← d1 ← a1 ← d2 ← a2 … (directive k: "ask k", answer k with usage), chained by §2's hashes. */
function session(turns: number): Buffer {
  const lines: string[] = [];
  let prev: string | null = null;
  const add = (e: Record<string, unknown>): void => {
    const line = JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', prev_hash: prev, ...e });
    prev = createHash('sha256').update(line).digest('hex');
    lines.push(line + '\n');
  };
  add({ id: 'h', parent_id: null, kind: 'header', system_prompt: 'system', tools: [], cwd: '/home/ana/projects/vak' });
  let parent = 'h';
  for (let k = 1; k <= turns; k++) {
    const n = String(k).padStart(3, '0');
    add({
      id: `d${n}`,
      parent_id: parent,
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: `ask ${n}` }] },
    });
    add({
      id: `a${n}`,
      parent_id: `d${n}`,
      kind: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text: `answer ${n}` }] },
      meta: { model: 'm', usage: { input_tokens: 100 + k, output_tokens: 10 } },
    });
    parent = `a${n}`;
  }
  return Buffer.from(lines.join(''));
}

async function setup(): Promise<{ home: string; file: string; b: ExplorerBackend; c: RecordingClient }> {
  const home = tmp();
  const file = join(home, KEY);
  mkdirSync(join(file, '..'), { recursive: true });
  appendFileSync(file, session(40));
  const b = await ExplorerBackend.create({
    home,
    isDemo: false,
    label: 't',
    rescanMs: 0,
    lockPollMs: 0,
    firstReadBytes: Infinity,
  });
  backends.push(b);
  const c = new RecordingClient('c');
  await b.call('subscribe', { topic: 'session', key: KEY }, c);
  return { home, file, b, c };
}

/** Rewrites bytes in place (same size), then waits for followers to hear the session was read again. */
async function rewrite(file: string, c: RecordingClient, find: string, replace: string): Promise<void> {
  expect(replace.length).toBe(find.length);
  const at = readFileSync(file).indexOf(find);
  expect(at).toBeGreaterThan(0);
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.from(replace), 0, replace.length, at);
  closeSync(fd);
  await c.seenOrNext((e) => e.type === 'session' && e.change === 'reloaded');
}

async function fresh(home: string): Promise<ExplorerBackend> {
  const b = await ExplorerBackend.create({ home, isDemo: false, label: 'f', watch: false, lockPollMs: 0 });
  backends.push(b);
  return b;
}

const leaf = { key: KEY, leaf: null, plan: 'auto' as const, profile: DEFAULT_PROFILE, overrides: {} };

describe('caches derived from a reading are derived again after it changes', () => {
  it('the context series (scan kept per reading)', async () => {
    const { home, file, b, c } = await setup();
    const before = unpackSeries((await b.call('getContextSeries', leaf, c)) as PackedContextSeries);
    await rewrite(file, c, '"input_tokens":120,', '"input_tokens":920,');
    const got = unpackSeries((await b.call('getContextSeries', leaf, c)) as PackedContextSeries);
    const want = unpackSeries((await (await fresh(home)).call('getContextSeries', leaf, c)) as PackedContextSeries);
    // Another process, another basis; and a series held from before the rewrite keeps nothing.
    expect({ ...got, basis: '' }).toEqual({ ...want, basis: '' });
    expect(got.basis).not.toBe(before.basis);
    const held = { basis: before.basis, leaf: before.leaf, points: before.points.length };
    expect(((await b.call('getContextSeries', { ...leaf, held }, c)) as PackedContextSeries).kept).toBe(0);
  });

  it('the leaf context (plan and chain facts kept per reading)', async () => {
    const { home, file, b, c } = await setup();
    await b.call('getLeafView', leaf, c);
    // A directive becomes a tool message: one turn fewer.
    await rewrite(
      file,
      c,
      '"role":"user","content":[{"type":"text","text":"ask 020"',
      '"role":"tool","content":[{"type":"text","text":"ask 020"',
    );
    const got = (await b.call('getLeafView', leaf, c)) as LeafView;
    const want = (await (await fresh(home)).call('getLeafView', leaf, c)) as LeafView;
    expect(got.plan).toEqual(want.plan);
    expect(got.plan.turns).toBe(39); // 40 before
  });

  it('the directive previews of the plan rows (kept per reading)', async () => {
    const { home, file, b, c } = await setup();
    const req = { ...leaf, start: 0, count: 100 };
    await b.call('getPlanTurns', req, c);
    await rewrite(file, c, '"text":"ask 007"', '"text":"ASK 007"');
    const got = (await b.call('getPlanTurns', req, c)) as PlanTurns;
    expect(got).toEqual(await (await fresh(home)).call('getPlanTurns', req, c));
    expect(got.turns.map((t) => t.directive)).toContain('ASK 007');
  });

  it('the usage a delta adds to (kept per reading)', async () => {
    const { home, file, c } = await setup();
    await rewrite(file, c, '"input_tokens":120,', '"input_tokens":920,');
    // An append after it: its delta adds to the totals of the new reading, not the old one.
    const last = readFileSync(file).toString().trimEnd().split('\n').at(-1) ?? '';
    const line = JSON.stringify({
      id: 'z001',
      parent_id: 'a040',
      ts: '2026-01-01T00:00:00.000Z',
      prev_hash: createHash('sha256').update(last).digest('hex'),
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: 'more' }] },
    });
    appendFileSync(file, line + '\n');
    const e = await c.seenOrNext((x) => x.type === 'session' && x.change === 'appended');
    const info = (await (await fresh(home)).call('openSession', { key: KEY }, c)) as { usage: unknown };
    expect(e.type === 'session' && e.delta?.usage).toEqual(info.usage);
  });

  it('the warning marks of the tree rows (kept per reading)', async () => {
    const { home, file, b, c } = await setup();
    const rows = { key: KEY, start: 0, count: 200, foldAudit: false };
    await b.call('getTreeRows', rows, c);
    await rewrite(file, c, '"id":"a010"', '"id":"x010"');
    const got = (await b.call('getTreeRows', rows, c)) as TreeRowsResult;
    expect(got).toEqual(await (await fresh(home)).call('getTreeRows', rows, c));
    expect(got.rows.filter((r) => r.hasWarning).length).toBeGreaterThan(0);
  });

  it('the turn costs (a turn cache per reading) and the session cost (a call reader per reading)', async () => {
    const { home, file, b, c } = await setup();
    await b.call('getLeafView', leaf, c);
    await b.call('getCost', { key: KEY }, c);
    const turns = turnCacheOf(b.cache.peek(KEY)!.ledger);
    await rewrite(file, c, '"input_tokens":120,', '"input_tokens":920,');
    expect(turnCacheOf(b.cache.peek(KEY)!.ledger)).not.toBe(turns);
    const got = (await b.call('getCost', { key: KEY }, c)) as SessionCost;
    expect(got).toEqual(await (await fresh(home)).call('getCost', { key: KEY }, c));
  });
});
