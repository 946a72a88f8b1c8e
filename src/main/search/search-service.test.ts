import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchPage, SearchRequest } from '../../shared/api-features';
import { generateSession } from '../../generator';
import { scanHome, sessionPath } from '../core/home';
import { readSessionSummary } from '../library/session-summary';
import { useTempDir } from '../../test-support/temp-dir';
import { openRegular } from './file-scan';
import { SearchService } from './search-service';

const DEMO = join(import.meta.dirname, '../../../resources/demo-home');
const tempDir = useTempDir('vak-search-');

async function serviceOver(home: string): Promise<SearchService> {
  // What the library lists (it is a layer above search): each file's summary.
  const summaries = scanHome(home).flatMap((f) => readSessionSummary(f)?.summary ?? []);
  return new SearchService(home, () => summaries);
}

const req = (query: string, more: Partial<SearchRequest> = {}): SearchRequest => ({
  searchId: 's1',
  query,
  scope: { kind: 'home' },
  filters: {},
  limit: 500,
  ...more,
});

/** Every page until done: the hits as `key line entryId field`. */
async function allHits(svc: SearchService, r: SearchRequest): Promise<{ rows: string[]; pages: SearchPage[] }> {
  const pages: SearchPage[] = [];
  let page = await svc.search(r, 'c');
  pages.push(page);
  while (page.cursor) {
    page = await svc.search({ ...r, cursor: page.cursor }, 'c');
    pages.push(page);
  }
  const rows = pages.flatMap((p) =>
    p.sessions.flatMap((s) => s.hits.map((h) => `${s.key} ${h.line} ${h.entryId} ${h.field}`)),
  );
  return { rows, pages };
}

/**
 * The strings LEDGER.md says hold what was said and done, written out from its tables
 * (§3, §4) without the service's code: text and thinking, tool inputs' values, tool
 * results and digests, compaction summaries, the header's system prompt and tool
 * descriptions, and audit payloads without their ids and digests.
 */
function specStrings(e: Record<string, unknown>): string[] {
  const out: string[] = [];
  const values = (v: unknown, skip: (k: string) => boolean): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach((x) => values(x, skip));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (!skip(k)) values(x, skip);
  };
  const o = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
  const label = (k: string): boolean =>
    k === 'id' || k.endsWith('_id') || k.endsWith('digest') || k === 'evidence' || k === 'usage';
  const audit: Record<string, string> = {
    receipt: 'receipt',
    goal: 'goal',
    goal_update: 'goal_update',
    activity: 'activity',
    work: 'work',
    intent: 'intent',
    child_run: 'child_run',
    turn_capabilities_bound: 'capabilities',
    presentation: 'presentation',
    turn_card: 'turn_card',
  };
  const kind = e['kind'] as string;
  if (kind === 'header') {
    values(e['system_prompt'], () => true);
    for (const t of (e['tools'] as unknown[]) ?? []) values(o(t)['description'], () => true);
  } else if (kind === 'message') {
    for (const b of (o(e['message'])['content'] as unknown[]) ?? []) {
      const block = o(b);
      if (block['type'] === 'text' || block['type'] === 'thinking') values(block['text'], () => true);
      if (block['type'] === 'tool_use') values(block['input'], () => false);
      if (block['type'] === 'tool_result') {
        values(block['content'], () => true);
        values(block['digest'], () => true);
      }
    }
  } else if (kind === 'compaction') {
    values(o(e['packet'])['summary'], () => true);
    values(e['summary'], () => true);
  } else if (kind in audit) values(e[audit[kind]], label);
  return out;
}

/** What a user means by "the same text": canonically equal, case aside. */
const folded = (s: string): string => s.normalize('NFC').toLowerCase().replace(/ς/g, 'σ');

/** The reference: parse every line of every file (no prefilter) and look in the strings the spec names. */
function naiveHits(home: string, query: string): Set<string> {
  const q = folded(query);
  const out = new Set<string>();
  for (const f of scanHome(home)) {
    const lines = readFileSync(f.path, 'utf8').split('\n');
    lines.pop(); // after the last \n, or an unterminated tail: no entry
    lines.forEach((text, k) => {
      let e: Record<string, unknown>;
      try {
        e = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return;
      }
      if (typeof e['id'] !== 'string' || typeof e['kind'] !== 'string' || typeof e['ts'] !== 'string') return;
      if (specStrings(e).some((s) => folded(s).includes(q))) out.add(`${f.key} ${k + 1} ${e['id']}`);
    });
  }
  return out;
}

/** Lines of the home whose bytes hold `text` anywhere (what a match on every string value would find, and more). */
function rawLines(home: string, text: string): number {
  return scanHome(home).reduce(
    (n, f) =>
      n +
      readFileSync(f.path, 'utf8')
        .split('\n')
        .filter((l) => l.includes(text)).length,
    0,
  );
}

function demoCopy(): string {
  const home = join(tempDir(), 'home');
  cpSync(DEMO, home, { recursive: true });
  return home;
}

describe('search', () => {
  it('finds what a full parse finds, across chunk boundaries and pages, each entry once with its line', async () => {
    const home = demoCopy();
    // Two generated sessions of ~6 MB each: lines straddle the scanner's 4 MiB chunks.
    for (const seed of [1, 2]) {
      const g = generateSession({ seed, bytes: 6 << 20, cwd: `/gen/${seed}` });
      const dir = join(home, 'agents', 'vak', 'sessions', `00000000000000${seed}0`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${g.sessionId}.jsonl`), g.bytes);
    }
    const svc = await serviceOver(home);
    for (const query of ['TOKENIZER', 'src/lock.rs', 'cargo test', 'approval']) {
      const { rows, pages } = await allHits(svc, req(query, { limit: 37 }));
      const got = rows.map((r) => r.split(' ').slice(0, 3).join(' '));
      expect(new Set(got).size).toBe(got.length);
      expect(new Set(got)).toEqual(naiveHits(home, query));
      expect(got.length).toBeGreaterThan(0);
      expect(pages[pages.length - 1].done).toBe(true);
      expect(pages.slice(0, -1).every((p) => p.hits === 37 || p.scannedBytes < p.totalBytes)).toBe(true);
    }
  });

  it('matches message text, tool inputs, tool results and audit payloads; not keys; an id only as a whole', async () => {
    const home = join(tempDir(), 'home');
    const key = 'agents/vak/sessions/aaaaaaaaaaaaaaaa/s1.jsonl';
    mkdirSync(join(home, 'agents/vak/sessions/aaaaaaaaaaaaaaaa'), { recursive: true });
    const lines = [
      {
        id: 'h',
        parent_id: null,
        ts: '2026-01-01T00:00:00Z',
        prev_hash: null,
        kind: 'header',
        session_id: 's1',
        cwd: '/x',
        system_prompt: '',
        tools: [],
      },
      {
        id: 'u1',
        parent_id: 'h',
        ts: '2026-01-01T00:00:01Z',
        prev_hash: 'x',
        kind: 'message',
        message: { role: 'user', content: [{ type: 'text', text: 'Please fix the Zebra parser' }] },
      },
      {
        id: 'a1',
        parent_id: 'u1',
        ts: '2026-01-01T00:00:02Z',
        prev_hash: 'x',
        kind: 'message',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'run', input: { command: 'grep zebra src' } }],
        },
      },
      {
        id: 'r1',
        parent_id: 'a1',
        ts: '2026-01-02T00:00:03Z',
        prev_hash: 'x',
        kind: 'message',
        message: {
          role: 'tool',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: 'src/zebra.rs: found\n</script><img onerror=x>' },
          ],
        },
      },
      {
        id: 'x1',
        parent_id: 'r1',
        ts: '2026-01-03T00:00:04Z',
        prev_hash: 'x',
        kind: 'activity',
        activity: { type: 'approval', detail: 'ZEBRA allowed' },
        zebra_key: 1,
      },
    ];
    writeFileSync(join(home, key), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const svc = await serviceOver(home);
    const fields = async (query: string, more: Partial<SearchRequest> = {}): Promise<string[]> =>
      (await allHits(svc, req(query, more))).rows.map((r) => r.split(' ').slice(2).join(' '));
    expect(await fields('zebra')).toEqual([
      'u1 message.content[0].text',
      'a1 message.content[0].input.command',
      'r1 message.content[0].content',
      'x1 activity.detail',
    ]);
    expect(await fields('zebra_key')).toEqual([]); // keys are not searched
    expect(await fields('2026-01-02')).toEqual([]); // nor the structural fields
    expect(await fields('a1')).toEqual(['a1 id']); // an id, searched as a whole
    expect(await fields('zebra', { filters: { kinds: ['activity'] } })).toEqual(['x1 activity.detail']);
    expect(await fields('zebra', { filters: { from: '2026-01-02', to: '2026-01-02T23:59:59Z' } })).toEqual([
      'r1 message.content[0].content',
    ]);
    expect(await fields('zebra', { filters: { agents: ['other'] } })).toEqual([]);
    expect(await fields('zebra', { scope: { kind: 'session', key } })).toHaveLength(4);
    const page = await svc.search(req('<IMG ONERROR'), 'c');
    const hit = page.sessions[0].hits[0];
    expect(hit.snippet.slice(hit.matches[0][0], hit.matches[0][1]).toLowerCase()).toBe('<img onerror');
    expect(hit.line).toBe(4);
  });

  it('skips FIFOs and symbolic links without opening them, and never writes a ledger', async () => {
    const home = demoCopy();
    const files = scanHome(home);
    const before = files.map((f) => readFileSync(f.path));
    const dir = join(home, 'agents', 'vak', 'sessions', '1111111111111111');
    mkdirSync(dir, { recursive: true });
    execFileSync('mkfifo', [join(dir, 'fifo.jsonl')]);
    symlinkSync(files[0].path, join(dir, 'link.jsonl'));
    const svc = await serviceOver(home);
    const { rows, pages } = await allHits(svc, req('the'));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.includes('1111111111111111'))).toBe(false);
    expect(pages[pages.length - 1].done).toBe(true);
    files.forEach((f, k) => expect(readFileSync(f.path).equals(before[k])).toBe(true));
    // The scanner's own open refuses both, whatever the library lists.
    expect(await openRegular(join(dir, 'fifo.jsonl'))).toBeNull();
    expect(await openRegular(join(dir, 'link.jsonl'))).toBeNull();
    const fh = await openRegular(files[0].path);
    expect(fh).not.toBeNull();
    await fh?.close();
  });

  it('a query with no ASCII letters is matched on every line (lower, upper and as typed)', async () => {
    const home = join(tempDir(), 'home');
    const key = 'agents/vak/sessions/aaaaaaaaaaaaaaaa/s1.jsonl';
    mkdirSync(join(home, 'agents/vak/sessions/aaaaaaaaaaaaaaaa'), { recursive: true });
    const line = (id: string, text: string): string =>
      JSON.stringify({
        id,
        parent_id: null,
        ts: '2026-01-01T00:00:00Z',
        prev_hash: null,
        kind: 'message',
        message: { role: 'user', content: [{ type: 'text', text }] },
      });
    writeFileSync(
      join(home, key),
      [line('a', 'Grüße ÜNÏ'), line('b', 'nothing'), line('c', 'ünï here')].join('\n') + '\n',
    );
    const svc = await serviceOver(home);
    expect((await allHits(svc, req('ünï'))).rows.map((r) => r.split(' ')[2])).toEqual(['a', 'c']);
    expect((await allHits(svc, req('ÜNÏ'))).rows.map((r) => r.split(' ')[2])).toEqual(['a', 'c']);
  });

  it('a new search from the same client cancels the running one; a stale cursor is refused', async () => {
    const home = demoCopy();
    const g = generateSession({ seed: 5, bytes: 12 << 20, cwd: '/gen' });
    const dir = join(home, 'agents', 'vak', 'sessions', '2222222222222222');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${g.sessionId}.jsonl`), g.bytes);
    const svc = await serviceOver(home);
    const first = svc.search(req('no such text anywhere', { searchId: 'old' }), 'c');
    const second = svc.search(req('tokenizer', { searchId: 'new', limit: 5 }), 'c');
    const [a, b] = await Promise.all([first, second]);
    expect(a.cancelled).toBe(true);
    expect(a.cursor).toBeNull();
    expect(a.scannedBytes).toBeLessThan(a.totalBytes);
    expect(b.cancelled).toBe(false);
    expect(b.hits).toBe(5);
    await expect(
      svc.search({ ...req('tokenizer', { searchId: 'new', limit: 5 }), cursor: 'new:0' }, 'c'),
    ).rejects.toThrow(/stale cursor/);
    await expect(
      svc.search({ ...req('tokenizer', { searchId: 'new', limit: 5 }), cursor: b.cursor! }, 'other'),
    ).rejects.toThrow(/no search/);
    // An id lookup (the palette's) runs beside the client's text search: only a search of its own kind replaces one.
    const text = await svc.search(req('tokenizer', { searchId: 'text', limit: 5 }), 'c3');
    const byId = await svc.search(req('e0', { searchId: 'id', limit: 5, match: 'id' }), 'c3');
    expect(byId.cancelled).toBe(false);
    const more = await svc.search(
      { ...req('tokenizer', { searchId: 'text', limit: 5 }), cursor: text.cursor ?? '' },
      'c3',
    );
    expect(more.cancelled).toBe(false);
    expect(more.hits).toBe(5);
    // Another client's search runs beside it, untouched.
    const c = await svc.search(req('tokenizer', { searchId: 'x', limit: 5 }), 'c2');
    expect(c.cancelled).toBe(false);
    expect(svc.cancel('new', 'c')).toBe(true);
    await expect(
      svc.search({ ...req('tokenizer', { searchId: 'new', limit: 5 }), cursor: b.cursor! }, 'c'),
    ).rejects.toThrow(/no search/);
  });

  it('says how many of the files in scope it has scanned, page by page', async () => {
    const home = demoCopy();
    const svc = await serviceOver(home);
    const total = scanHome(home).length;
    // One hit per page over a word every session has: the file count climbs to the total.
    const { pages } = await allHits(svc, req('the', { limit: 1 }));
    expect(pages.every((p) => p.filesTotal === total)).toBe(true);
    const seen = pages.map((p) => p.filesScanned);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen[0]).toBeLessThan(total);
    expect(seen[seen.length - 1]).toBe(total);
    // In a session, the scope is that one file.
    const key = scanHome(home)[0].key;
    const one = await allHits(svc, req('the', { searchId: 's2', scope: { kind: 'session', key } }));
    expect(one.pages.map((p) => [p.filesScanned, p.filesTotal])).toEqual([[1, 1]]);
  });

  it('an id search (match: id) finds the entries whose id starts or ends with the text, and nothing else', async () => {
    const home = demoCopy();
    const svc = await serviceOver(home);
    const f = scanHome(home)[0];
    const ids = readFileSync(f.path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { id: string }).id);
    const scope = { kind: 'session' as const, key: f.key };
    const byId = async (text: string) =>
      (await allHits(svc, req(text, { searchId: `id-${text}`, scope, match: 'id' }))).rows.map((r) => r.split(' ')[2]);
    // The tail a list shows ("…5cf37feb"), and a prefix long enough to be one entry's.
    const last = ids[ids.length - 1];
    expect(await byId(last.slice(-8))).toEqual([last]);
    expect(await byId(last.slice(0, 23).toUpperCase())).toEqual(ids.filter((i) => i.startsWith(last.slice(0, 23))));
    // A prefix every id shares finds every entry; text that is in the file but in no id finds none.
    expect(await byId(ids[0].slice(0, 4))).toEqual(ids.filter((i) => i.startsWith(ids[0].slice(0, 4))));
    expect(await byId('the')).toEqual([]);
    // The same text as a text search finds messages, not ids.
    const text = (await allHits(svc, req('the', { searchId: 't', scope }))).rows;
    expect(text.length).toBeGreaterThan(0);
  });

  it('an unterminated last line is no entry yet, and a line is found once it ends', async () => {
    const home = demoCopy();
    const f = scanHome(home)[0];
    appendFileSync(
      f.path,
      '{"id":"tail1","parent_id":null,"ts":"2026-01-01T00:00:00Z","prev_hash":null,"kind":"activity","activity":{"detail":"quokka',
    );
    const svc = await serviceOver(home);
    expect((await allHits(svc, req('quokka'))).rows).toEqual([]);
    appendFileSync(f.path, '"}}\n');
    const svc2 = await serviceOver(home);
    expect((await allHits(svc2, req('quokka'))).rows.map((r) => r.split(' ')[2])).toEqual(['tail1']);
    expect(sessionPath(home, f.key)).toBe(f.path);
  });
});

describe('what search reads', () => {
  /** A home with the demo's sessions, a generated one, and a session of hand-written lines. */
  function homeWith(lines: string[]): { home: string; key: string } {
    const home = demoCopy();
    const g = generateSession({ seed: 3, bytes: 1 << 20, cwd: '/gen/3' });
    const gdir = join(home, 'agents', 'vak', 'sessions', '0000000000000030');
    mkdirSync(gdir, { recursive: true });
    writeFileSync(join(gdir, `${g.sessionId}.jsonl`), g.bytes);
    const key = 'agents/vak/sessions/bbbbbbbbbbbbbbbb/s9.jsonl';
    mkdirSync(join(home, 'agents/vak/sessions/bbbbbbbbbbbbbbbb'), { recursive: true });
    writeFileSync(join(home, key), lines.join('\n') + '\n');
    return { home, key };
  }
  const entry = (id: string, body: Record<string, unknown>): Record<string, unknown> => ({
    id,
    parent_id: null,
    ts: '2026-01-01T00:00:00Z',
    prev_hash: null,
    kind: 'message',
    ...body,
  });
  const says = (id: string, text: string, role = 'user'): string =>
    JSON.stringify(entry(id, { message: { role, content: [{ type: 'text', text }] } }));

  it('finds a word in message text, tool inputs and results, not in roles, block types, models, stop reasons or tool ids', async () => {
    const { home } = homeWith([
      says('t1', 'why does the stream stop with end_turn so early?'),
      JSON.stringify(
        entry('t2', {
          message: {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_zz9', name: 'search', input: { pattern: 'END_TURN' } }],
          },
          meta: { model: 'claude-sonnet-4-5', stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } },
        }),
      ),
      JSON.stringify(
        entry('t3', {
          message: {
            role: 'tool',
            content: [{ type: 'tool_result', tool_use_id: 'toolu_zz9', content: 'src/a.rs: end_turn' }],
          },
        }),
      ),
    ]);
    const svc = await serviceOver(home);
    const ids = async (query: string): Promise<Set<string>> =>
      new Set(
        (await allHits(svc, req(query, { searchId: query }))).rows.map((r) => r.split(' ').slice(0, 3).join(' ')),
      );
    // `end_turn` is the stop reason of nearly every answer: found only where a message says it.
    const endTurn = await ids('end_turn');
    expect(endTurn).toEqual(naiveHits(home, 'end_turn'));
    expect([...endTurn].map((r) => r.split(' ')[2]).sort()).toEqual(['t1', 't2', 't3']);
    expect(rawLines(home, 'end_turn')).toBeGreaterThan(100);
    // Labels every entry carries find nothing, or only what a message says.
    const toolId = /"id":"(toolu_[0-9a-z]+)"/.exec(readFileSync(scanHome(home)[0].path, 'utf8'))![1];
    for (const label of [
      'assistant',
      'claude-sonnet-4-5',
      'tool_use',
      'thinking',
      'tool_result',
      toolId,
      'toolu_zz9',
    ]) {
      const got = await ids(label);
      expect(got, label).toEqual(naiveHits(home, label));
      expect(rawLines(home, label), label).toBeGreaterThan(got.size);
    }
    expect(await ids('toolu_zz9')).toEqual(new Set());
    // What is text is still found: a tool input's value, a result, an audit payload.
    for (const text of ['cargo test', 'approval', 'src/a.rs']) {
      const got = await ids(text);
      expect(got.size, text).toBeGreaterThan(0);
      expect(got, text).toEqual(naiveHits(home, text));
    }
  });

  it('folds case over all of Unicode and finds text the file writes with \\u escapes', async () => {
    const { home } = homeWith([
      says('u1', 'A Naïve approach'),
      says('u2', 'NAÏVE APPROACH'),
      says('u3', 'nai\u0308ve, decomposed'),
      // The same word as JSON may write it: every non-ASCII (or any) character as \u escapes.
      '{"id":"u4","parent_id":null,"ts":"2026-01-01T00:00:00Z","prev_hash":null,"kind":"message","message":{"role":"user","content":[{"type":"text","text":"Na\\u00efve and \\u0074okenizer"}]}}',
      says('u5', 'the \u212Aelvin scale'),
      says('u6', 'ΟΔΟΣ and οδος'),
      says('u7', 'naive without the diaeresis'),
    ]);
    const svc = await serviceOver(home);
    const hitIds = async (query: string): Promise<string[]> =>
      (await allHits(svc, req(query, { searchId: query }))).rows
        .filter((r) => r.includes('bbbbbbbbbbbbbbbb'))
        .map((r) => r.split(' ')[2]);
    for (const q of ['naïve', 'NAÏVE', 'Nai\u0308ve']) expect(await hitIds(q), q).toEqual(['u1', 'u2', 'u3', 'u4']);
    expect(await hitIds('tokenizer')).toContain('u4');
    expect(await hitIds('kelvin')).toEqual(['u5']);
    expect(await hitIds('οδοσ')).toEqual(['u6']);
    expect(await hitIds('naive')).toEqual(['u7']);
    // The whole home agrees with a parse of every line.
    for (const q of ['naïve', 'tokenizer', 'kelvin', 'ΟΔΟΣ']) {
      const rows = (await allHits(svc, req(q, { searchId: `all-${q}` }))).rows.map((r) =>
        r.split(' ').slice(0, 3).join(' '),
      );
      expect(new Set(rows), q).toEqual(naiveHits(home, q));
    }
    // The snippet marks the word as the file writes it.
    const page = await svc.search(
      req('naïve', {
        searchId: 'snip',
        scope: { kind: 'session', key: 'agents/vak/sessions/bbbbbbbbbbbbbbbb/s9.jsonl' },
      }),
      'c',
    );
    const marked = page.sessions[0].hits.map((h) => h.snippet.slice(h.matches[0][0], h.matches[0][1]));
    expect(marked).toEqual(['Naïve', 'NAÏVE', 'naïve', 'Naïve']);
  });
});
