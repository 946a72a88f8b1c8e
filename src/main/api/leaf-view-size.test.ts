/**
 * The work-count invariant for what a leaf view sends: its answer follows the screen
 * (a window of the chain, the first screen of the projected pane, the plan's outline), never
 * the number of turns. Counted in JSON characters (what the WebSocket carries), never timed.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STRIP_SEGMENTS } from '../../shared/plan-strip';
import type { LeafView, PlanTurns } from '../../shared/api';
import { readWholeExport } from '../../test-support/read-export';
import { useTempDir } from '../../test-support/temp-dir';
import { cwdHash } from '../core/fnv1a64';
import type { ApiClient } from './api-backend';
import { ExplorerBackend } from './explorer-backend';

const tempDir = useTempDir('vak-view-size-');
const CWD = '/home/ana/projects/sized';
const client: ApiClient = { id: 'sized', push: () => undefined };
const open: ExplorerBackend[] = [];
afterEach(async () => {
  for (const b of open.splice(0)) await b.close();
});

/**
 * A session of `turns` closed turns of one shape (directive, answer, and a turn card on every
 * other turn) and an open one; ids of one width, so only the number of turns differs.
 */
function ledgerOf(turns: number): string {
  const lines: string[] = [];
  let prev: string | null = null;
  let parent: string | null = null;
  let clock = Date.UTC(2026, 10, 29, 9, 0, 0);
  const add = (id: string, kind: string, payload: Record<string, unknown>): void => {
    const line = JSON.stringify({
      id,
      parent_id: parent,
      ts: new Date((clock += 1000)).toISOString(),
      prev_hash: prev,
      kind,
      ...payload,
    });
    prev = createHash('sha256').update(line, 'utf8').digest('hex');
    parent = id;
    lines.push(line);
  };
  const say = (role: string, text: string) => ({ message: { role, content: [{ type: 'text', text }] } });
  add('h', 'header', {
    session_id: 'sized',
    app_version: '0.0.0',
    provider: 'test',
    model: 'm',
    system_prompt: 'system',
    tools: [],
    permission_mode: 'ask',
    cwd: CWD,
    parent_session: null,
  });
  for (let t = 0; t <= turns; t++) {
    const n = String(t).padStart(6, '0');
    add(`t${n}-u`, 'message', say('user', `question ${n}: ${'why '.repeat(20)}`));
    // The last directive still owes its answer: the open turn.
    if (t < turns) add(`t${n}-a`, 'message', say('assistant', `answer ${n}: ${'because '.repeat(40)}`));
    if (t % 2 === 0 && t < turns) add(`t${n}-c`, 'turn_card', { turn_card: { turn_id: `t${n}-u`, line: `card ${n}` } });
  }
  return lines.map((l) => `${l}\n`).join('');
}

async function sizes(
  turns: number,
): Promise<{ view: LeafView; bytes: number; page: number; byId: number; exported: number }> {
  const home = tempDir();
  const key = `agents/vak/sessions/${cwdHash(CWD)}/sized-${turns}.jsonl`;
  mkdirSync(join(home, key, '..'), { recursive: true });
  writeFileSync(join(home, key), ledgerOf(turns));
  const b = await ExplorerBackend.create({ home, isDemo: false, label: 'test', watch: false, lockPollMs: 0 });
  open.push(b);
  // A window this small makes plan auto card every turn that has a card: the strip alternates.
  const req = {
    key,
    leaf: null,
    plan: 'auto' as const,
    profile: { window: 2000, reserve: 0, bytes_per_token: 4 },
    overrides: {},
  };
  const view = (await b.call('getLeafView', { ...req, pagedMessages: true }, client)) as LeafView;
  const page = (await b.call('getPlanTurns', { ...req, start: 0, count: 50 }, client)) as PlanTurns;
  const byId = (await b.call('getPlanTurns', { ...req, ids: ['t000001-u', 't000002-u'] }, client)) as PlanTurns;
  const exported = await readWholeExport((m, r) => b.call(m, r, client), { ...req, format: 'json' });
  return {
    exported: (JSON.parse(exported.text) as { plan: unknown[] }).plan.length,
    view,
    bytes: JSON.stringify(view).length,
    page: JSON.stringify(page.turns).length,
    byId: JSON.stringify(byId.turns).length,
  };
}

describe('a leaf view follows the screen, not the number of turns', () => {
  it('100, 1,000 and 3,000 turns: the same answer size within the strip and a few digits', async () => {
    const s100 = await sizes(100);
    const s1000 = await sizes(1000);
    const s3000 = await sizes(3000);
    for (const [s, turns] of [
      [s100, 100],
      [s1000, 1000],
      [s3000, 3000],
    ] as const) {
      expect(s.view.plan.turns).toBe(turns);
      expect(s.view.plan.card).toBe(turns / 2);
      expect(s.view.plan.strip.length).toBeLessThanOrEqual(STRIP_SEGMENTS);
      expect(s.view.plan.strip.reduce((n, g) => n + g.count, 0)).toBe(turns);
      // An export is the whole §9 projection: every plan row, whatever a view carries.
      expect(s.exported).toBe(turns);
    }
    // 100 turns alternate into 100 segments; more turns make at most STRIP_SEGMENTS, whatever their number.
    expect(s100.view.plan.strip.length).toBe(100);
    expect(s3000.view.plan.strip.length).toBeLessThanOrEqual(STRIP_SEGMENTS);
    // 30× the turns: the answer grows by the strip's bound and digits, not by the turns (it was ~30×).
    expect(s3000.bytes).toBeLessThan(s100.bytes * 1.3);
    expect(s3000.bytes - s1000.bytes).toBeLessThan(s1000.bytes / 100);
    // A page of plan rows is the page's size; rows by id are the ids' size.
    expect(s3000.page).toBe(s100.page);
    expect(s3000.byId).toBe(s100.byId);
    // (A size test, not a timed one. Its first export waits for the secret scan's threads to start,
    // secretlint loaded from the sources under the test runner: 7-15 s on a loaded machine.)
  }, 180_000);
});
