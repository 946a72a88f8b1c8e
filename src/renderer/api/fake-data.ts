import type { HomeInfo, SessionSummary } from '../../shared/api';
import type { Json } from '../../shared/ledger-types';

/** One in-memory ledger line for the fake API. */
export interface FakeEntry {
  id: string;
  parent_id: string | null;
  ts: string;
  kind: string;
  [field: string]: Json;
}

const ts = (min: number): string => new Date(Date.UTC(2026, 10, 29, 9, min, 0)).toISOString();

const msg = (
  id: string,
  parent: string,
  min: number,
  role: string,
  content: Json[],
  meta?: { [k: string]: Json },
): FakeEntry => ({
  id,
  parent_id: parent,
  ts: ts(min),
  kind: 'message',
  message: { role, content },
  ...(meta ? { meta } : {}),
});

/** A small branching session: two turns on the main line, one abandoned branch, audit entries between. */
export function demoEntries(): FakeEntry[] {
  return [
    {
      id: 'e01',
      parent_id: null,
      ts: ts(0),
      kind: 'header',
      session_id: 'sess-a',
      model: 'claude-sonnet-4-5',
      provider: 'anthropic',
      cwd: '/home/ana/projects/mdlite',
      system_prompt: 'You are vak, a careful coding agent.',
      tools: [{ name: 'search', description: 'Search the workspace.', input_schema: { type: 'object' } }],
      permission_mode: 'ask',
      app_version: '0.9.3',
      parent_session: null,
    },
    msg('e02', 'e01', 1, 'user', [{ type: 'text', text: 'List the TODO comments under src/.' }]),
    msg(
      'e03',
      'e02',
      2,
      'assistant',
      [
        { type: 'thinking', text: 'I should search.' },
        { type: 'tool_use', id: 'toolu_01', name: 'search', input: { query: 'TODO', path: 'src' } },
      ],
      { usage: { input_tokens: 100, output_tokens: 20 } },
    ),
    msg('e04', 'e03', 3, 'tool', [
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01',
        content: '\u001b[31msrc/cache.rs:14\u001b[0m // TODO: evict by size',
      },
    ]),
    msg(
      'e05',
      'e04',
      4,
      'assistant',
      [{ type: 'text', text: 'There are **three** TODOs. See [the docs](https://example.com).' }],
      {
        usage: { input_tokens: 200, output_tokens: 30 },
      },
    ),
    { id: 'e06', parent_id: 'e05', ts: ts(5), kind: 'receipt', receipt: { purpose: 'turn', attempts: [] } },
    { id: 'e07', parent_id: 'e06', ts: ts(6), kind: 'activity', activity: { type: 'retry', detail: 'once' } },
    msg('e08', 'e05', 7, 'user', [{ type: 'text', text: 'try another way' }]),
    msg('e09', 'e08', 8, 'assistant', [{ type: 'text', text: 'Another way: grep.' }], {
      usage: { input_tokens: 50, output_tokens: 5 },
    }),
    {
      id: 'e10',
      parent_id: 'e07',
      ts: ts(9),
      kind: 'turn_card',
      turn_card: { turn_id: 'e02', line: 'Listed 3 TODOs under src/.' },
    },
    {
      id: 'e11',
      parent_id: 'e10',
      ts: ts(10),
      kind: 'work',
      work: { work_id: 'w1', event: 'opened', state: 'open', detail: 'evict by size' },
    },
    msg('e12', 'e11', 11, 'user', [{ type: 'text', text: 'Fix the cache eviction.' }]),
    msg('e13', 'e12', 12, 'assistant', [{ type: 'text', text: 'Fixed. Tests pass.' }], {
      usage: { input_tokens: 300, output_tokens: 40 },
    }),
  ];
}

export const DEMO_HOME: HomeInfo = { home: '/opt/vak/demo-home', isDemo: true, label: 'Demo home (bundled)' };

const summary = (
  over: Partial<SessionSummary> & Pick<SessionSummary, 'key' | 'agent' | 'sessionId'>,
): SessionSummary => ({
  cwdHash: 'abc123',
  cwd: '/home/ana/projects/mdlite',
  cwdMismatch: false,
  title: null,
  model: 'claude-sonnet-4-5',
  firstTs: ts(0),
  lastTs: ts(12),
  entries: 13,
  entriesExact: true,
  tailUnterminated: false,
  branches: 1,
  warnings: 0,
  sizeBytes: 4096,
  mtimeMs: Date.UTC(2026, 10, 29, 9, 12),
  lock: 'free',
  unreadable: null,
  parentSession: null,
  ...over,
});

export const SESSION_A = 'agents/vak/sessions/abc123/sess-a.jsonl';
export const SESSION_B = 'agents/vak/sessions/abc123/sess-b.jsonl';
export const SESSION_C = 'agents/vak/sessions/def456/sess-c.jsonl';
export const SESSION_D = 'agents/reviewer/sessions/abc123/sess-d.jsonl';

export function demoSessions(): SessionSummary[] {
  return [
    summary({ key: SESSION_A, agent: 'vak', sessionId: 'sess-a', title: 'List the TODO comments', warnings: 1 }),
    summary({
      key: SESSION_B,
      agent: 'vak',
      sessionId: 'sess-b',
      title: 'Add tests for the parser',
      mtimeMs: Date.UTC(2026, 10, 29, 10, 0),
      lastTs: ts(60),
      lock: 'held',
    }),
    summary({
      key: SESSION_C,
      agent: 'vak',
      sessionId: 'sess-c',
      cwdHash: 'def456',
      cwd: '/home/ana/src/other',
      title: 'Refactor the lexer',
      mtimeMs: Date.UTC(2026, 10, 28, 9, 0),
    }),
    summary({
      key: SESSION_D,
      agent: 'reviewer',
      sessionId: 'sess-d',
      title: 'Review the diff',
      // Not opened yet, and its last line has no \n while no agent writes: a torn tail.
      warnings: null,
      branches: null,
      tailUnterminated: true,
    }),
  ];
}

/** A long linear session for paging tests: a header, then `turns` user → assistant pairs with a receipt after each answer. */
export function longEntries(turns: number): FakeEntry[] {
  const out: FakeEntry[] = [demoEntries()[0]];
  let parent = 'e01';
  const add = (e: { id: string; kind: string; [field: string]: Json }): void => {
    out.push({ ...e, parent_id: parent, ts: ts(out.length % 60) });
    parent = e.id;
  };
  for (let t = 0; t < turns; t++) {
    add({ id: `u${t}`, kind: 'message', message: { role: 'user', content: [{ type: 'text', text: `ask ${t}` }] } });
    add({
      id: `a${t}`,
      kind: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text: `answer ${t}` }] },
    });
    add({ id: `r${t}`, kind: 'receipt', receipt: { purpose: 'turn', attempts: [] } });
  }
  return out;
}
