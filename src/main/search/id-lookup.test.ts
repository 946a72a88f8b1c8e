import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchPage, SearchRequest } from '../../shared/api-features';
import { generateSession } from '../../generator';
import { scanHome } from '../core/home';
import { Ledger } from '../core/ledger';
import { readSessionSummary } from '../library/session-summary';
import { useTempDir } from '../../test-support/temp-dir';
import type { OpenIndex } from './id-lookup';
import { SearchService } from './search-service';

const tempDir = useTempDir('vak-id-lookup-');
const DAY = 24 * 3600 * 1000;

/** A home of `n` generated sessions of ~`bytes` each, a day apart; their keys and lines. */
function home(n: number, bytes: number): { home: string; files: { key: string; path: string; lines: string[] }[] } {
  const dir = join(tempDir(), 'home');
  const files = [];
  for (let k = 0; k < n; k++) {
    const g = generateSession({ seed: 40 + k, bytes, cwd: `/gen/${k}`, startMs: Date.UTC(2026, 10, 1) + k * DAY });
    const key = `agents/vak/sessions/${String(k).padStart(16, '0')}/${g.sessionId}.jsonl`;
    mkdirSync(join(dir, key, '..'), { recursive: true });
    writeFileSync(join(dir, key), g.bytes);
    files.push({ key, path: join(dir, key), lines: g.bytes.toString('utf8').split('\n').slice(0, -1) });
  }
  return { home: dir, files };
}

function service(h: string, open: OpenIndex[] = []): SearchService {
  const summaries = scanHome(h).flatMap((f) => readSessionSummary(f)?.summary ?? []);
  return new SearchService(
    h,
    () => summaries,
    () => open,
  );
}

/** What the backend gives search of an open session (feature-handlers.ts `openIndexOf`). */
function openIndex(key: string, ledger: Ledger): OpenIndex {
  return {
    key,
    find: (id) => {
      const i = ledger.indexOf(id);
      return i === undefined ? null : { line: ledger.index.line[i], bytes: ledger.rawLine(i) };
    },
  };
}

const req = (query: string, more: Partial<SearchRequest> = {}): SearchRequest => ({
  searchId: 'id1',
  query,
  scope: { kind: 'home' },
  filters: {},
  limit: 8,
  match: 'id',
  ...more,
});

const rows = (p: SearchPage): string[] =>
  p.sessions.flatMap((s) => s.hits.map((h) => `${s.key} ${h.line} ${h.entryId}`));

async function everyPage(svc: SearchService, r: SearchRequest): Promise<SearchPage[]> {
  const pages = [await svc.search(r, 'c')];
  while (pages[pages.length - 1].cursor)
    pages.push(await svc.search({ ...r, cursor: pages[pages.length - 1].cursor! }, 'c'));
  return pages;
}

const idOf = (line: string): string => (JSON.parse(line) as { id: string }).id;

describe('an entry id is found before any scan', () => {
  it('from the index of an open session: the first page has it and no byte was scanned', async () => {
    const { home: h, files } = home(3, 2 << 20);
    const f = files[1];
    const ledger = await Ledger.open(f.path);
    const n = Math.floor(f.lines.length / 2);
    const id = idOf(f.lines[n]);
    const svc = service(h, [openIndex(f.key, ledger)]);
    const first = await svc.search(req(id), 'c');
    expect(rows(first)).toEqual([`${f.key} ${n + 1} ${id}`]);
    expect(first.scannedBytes).toBe(0);
    expect(svc.work).toMatchObject({ scannedBytes: 0, fromOpenIndex: 1, probedBytes: 0, countedBytes: 0 });
    expect(first.cursor).not.toBeNull();
    // The scan that follows finds nothing new: the entry is sent once.
    const rest = await everyPage(svc, { ...req(id), cursor: first.cursor! });
    expect(rest.flatMap(rows)).toEqual([]);
    expect(rest[rest.length - 1].done).toBe(true);
    // A text search for the id finds it the same way (as its `id` field), first.
    const text = await svc.search(req(id, { searchId: 't', match: 'text', limit: 50 }), 'c');
    expect(text.sessions[0].hits[0]).toMatchObject({ entryId: id, field: 'id', line: n + 1 });
    expect(text.scannedBytes).toBe(0);
    ledger.close();
  });

  it('from a file no one opened, by bisecting its times: a small window read, no scan', async () => {
    const { home: h, files } = home(4, 3 << 20);
    const svc = service(h);
    for (const [fi, at] of [
      [0, 0.5],
      [2, 0.9],
      [3, 0.01],
    ] as const) {
      const f = files[fi];
      const n = Math.floor(f.lines.length * at);
      const id = idOf(f.lines[n]);
      const before = { ...svc.work };
      // Typed in capitals: an id is an id whatever its case.
      const first = await svc.search(req(id.toUpperCase(), { searchId: `w${fi}` }), 'c');
      expect(rows(first)).toEqual([`${f.key} ${n + 1} ${id}`]);
      expect(first.scannedBytes).toBe(0);
      expect(svc.work.scannedBytes).toBe(before.scannedBytes);
      expect(svc.work.fromFileWindow).toBe(before.fromFileWindow + 1);
      // A few probes and one window, not the file (its lines are counted for the line number only).
      expect(svc.work.probedBytes - before.probedBytes).toBeLessThan(2 << 20);
      expect(svc.work.countedBytes - before.countedBytes).toBeLessThanOrEqual(readFileSync(f.path).length);
    }
  });

  it('an id out of time order (a file the bisection misleads) is still found, by the scan', async () => {
    const { home: h, files } = home(2, 2 << 20);
    const f = files[0];
    // An entry appended last whose id says it was made mid-session: not where the bisection looks.
    const mid = idOf(f.lines[Math.floor(f.lines.length / 2)]);
    const id = `${mid.slice(0, 24)}0123456789ab`;
    const last = f.lines[f.lines.length - 1];
    const line = JSON.stringify({
      id,
      parent_id: idOf(last),
      ts: '2026-11-01T05:00:00.000Z',
      prev_hash: createHash('sha256').update(last).digest('hex'),
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: 'late' }] },
    });
    appendFileSync(f.path, `${line}\n`);
    const svc = service(h);
    const pages = await everyPage(svc, req(id));
    expect(pages.flatMap(rows)).toEqual([`${f.key} ${f.lines.length + 1} ${id}`]);
    expect(svc.work.scannedBytes).toBeGreaterThan(0);
  });

  it('a query that is no UUIDv7 is not looked up: the scan answers it as before', async () => {
    const { home: h, files } = home(2, 1 << 20);
    const id = idOf(files[0].lines[5]);
    const svc = service(h);
    const pages = await everyPage(svc, req(id.slice(-12)));
    expect(pages.flatMap(rows)).toEqual([`${files[0].key} 6 ${id}`]);
    expect(svc.work).toMatchObject({ fromOpenIndex: 0, fromFileWindow: 0, probedBytes: 0 });
  });
});
