// npm run bench -- search: full-text search over ~1 GB of generated ledgers, this code beside main's.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  promises as fsp,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { SearchRequest } from '../src/shared/api-features';
import type { SessionSummary } from '../src/shared/api';
import { generateSession } from '../src/generator';
import { cwdHash } from '../src/main/core/fnv1a64';
import { scanHome } from '../src/main/core/home';
import { Ledger } from '../src/main/core/ledger';
import { readSessionSummary } from '../src/main/library/session-summary';
import type { OpenIndex } from '../src/main/search/id-lookup';
import { SearchService } from '../src/main/search/search-service';

const HOME = join(import.meta.dirname, '.data', 'search-home');
const BASELINE = join(import.meta.dirname, '.data', 'search-baseline');
const SESSIONS = 16;
const MB = 1 << 20;
const EACH = 64 * MB;
/** A phrase written once, at the end of the session the scan reads last (newest first): the worst place. */
const RARE = 'the quokka-umbrella rollout plan';

const sessionIdOf = (k: number): string => `01a20000-0000-7000-8000-${String(k).padStart(12, '0')}`;
const dayOf = (k: number): number => Date.UTC(2026, 10, 1 + k);

/** 16 sessions of 64 MiB in two agents, generated once (bench/.data is git-ignored); session 0 ends with RARE. */
function searchHome(log: (s: string) => void): string[] {
  const paths: string[] = [];
  for (let k = 0; k < SESSIONS; k++) {
    const agent = k % 4 === 0 ? 'reviewer' : 'vak';
    const cwd = `/home/ana/projects/p${k % 5}`;
    const dir = join(HOME, 'agents', agent, 'sessions', cwdHash(cwd));
    const path = join(dir, `${sessionIdOf(k)}.jsonl`);
    paths.push(path);
    if (existsSync(path)) continue;
    mkdirSync(dir, { recursive: true });
    log(`  generating ${path} …`);
    generateSession({ seed: 500 + k, bytes: EACH, cwd, sessionId: sessionIdOf(k), path, startMs: dayOf(k) });
  }
  const oldest = paths[0];
  const text = readFileSync(oldest, 'utf8');
  if (!text.includes(RARE)) {
    const lines = text.split('\n');
    const last = lines[lines.length - 2];
    const { id, ts } = JSON.parse(last) as { id: string; ts: string };
    const ms = Date.parse(ts) + 1000;
    const newId = `${ms
      .toString(16)
      .padStart(12, '0')
      .replace(/^(.{8})(.{4})$/, '$1-$2')}-7abc-8def-0123456789ab`;
    const line = JSON.stringify({
      id: newId,
      parent_id: id,
      ts: new Date(ms).toISOString(),
      prev_hash: createHash('sha256').update(last).digest('hex'),
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: `Write down ${RARE} before Friday.` }] },
    });
    appendFileSync(oldest, `${line}\n`);
  }
  // Modified in the order they were made: the scan (newest first) reads session 0 last.
  paths.forEach((p, k) => utimesSync(p, new Date(dayOf(k + 1)), new Date(dayOf(k + 1))));
  return paths;
}

/** The code compared against: `SEARCH_BASELINE=<ref>` (default `main`; once this is merged, the commit before it). */
const BASELINE_REF = process.env.SEARCH_BASELINE ?? 'main';

/**
 * The search code (every module of src/main/search) as it is at BASELINE_REF, written beside the
 * bench with its imports of the rest of the tree pointed at this tree.
 */
async function baselineService(summaries: SessionSummary[]): Promise<{ search: SearchService['search'] } | null> {
  const root = join(import.meta.dirname, '..');
  const git = (args: string[]): string | null => {
    try {
      return execFileSync('git', args, { cwd: root, encoding: 'utf8' });
    } catch {
      return null;
    }
  };
  const names = git(['ls-tree', '--name-only', BASELINE_REF, 'src/main/search/'])
    ?.split('\n')
    .filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'));
  if (!names?.includes('src/main/search/search-service.ts')) return null;
  const fix = (src: string): string =>
    src
      .replaceAll("from '../../shared/", "from '../../../src/shared/")
      .replaceAll("from '../../generator", "from '../../../src/generator")
      .replaceAll("from '../core/", "from '../../../src/main/core/")
      .replaceAll("from '../library/", "from '../../../src/main/library/");
  mkdirSync(BASELINE, { recursive: true });
  for (const name of names) {
    const src = git(['show', `${BASELINE_REF}:${name}`]);
    if (src === null) return null;
    writeFileSync(join(BASELINE, name.slice('src/main/search/'.length)), fix(src));
  }
  const mod = (await import(join(BASELINE, 'search-service.ts'))) as { SearchService: typeof SearchService };
  return new mod.SearchService(HOME, () => summaries);
}

/** Reads every byte once through the same 4 MiB chunks, doing nothing: the floor. */
async function readAll(paths: string[]): Promise<number> {
  const buf = Buffer.allocUnsafe(4 * MB);
  let n = 0;
  for (const p of paths) {
    const fh = await fsp.open(p, 'r');
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    await fh.close();
  }
  return n;
}

interface Timed {
  first: number;
  /** CPU time (user + system) of this process until the first hit: fairer than wall time on a loaded machine. */
  firstCpu: number;
  firstHits: number;
  all: number;
  hits: number;
  pages: number;
}

let nextId = 0;
/** Asks pages as the panel does (50 hits, then 500 a page): when the first hit came, and when the last page did. */
async function timeSearch(
  svc: { search: SearchService['search'] },
  query: string,
  match: 'text' | 'id',
  untilFirst: boolean,
): Promise<Timed> {
  const searchId = `b${++nextId}`;
  const base: SearchRequest = { searchId, query, scope: { kind: 'home' }, filters: {}, limit: 50, match };
  const cpu = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const c0 = cpu();
  const t0 = performance.now();
  let page = await svc.search(base, 'bench');
  let pages = 1;
  let hits = page.hits;
  let first = hits > 0 ? performance.now() - t0 : NaN;
  let firstCpu = hits > 0 ? cpu() - c0 : NaN;
  const firstHits = hits;
  while (page.cursor && pages < 400 && !(untilFirst && hits > 0)) {
    page = await svc.search({ ...base, limit: hits > 0 ? 500 : 50, cursor: page.cursor }, 'bench');
    pages++;
    hits += page.hits;
    if (Number.isNaN(first) && hits > 0) {
      first = performance.now() - t0;
      firstCpu = cpu() - c0;
    }
  }
  return {
    first,
    firstCpu,
    firstHits: Number.isNaN(first) ? 0 : firstHits || hits,
    all: performance.now() - t0,
    hits,
    pages,
  };
}

const ms = (n: number): string => (Number.isNaN(n) ? '—' : `${n.toFixed(0)} ms`);

export async function runSearchBench(log: (s: string) => void): Promise<void> {
  const paths = searchHome(log);
  const files = scanHome(HOME);
  const summaries = files.flatMap((f) => readSessionSummary(f)?.summary ?? []);
  const total = summaries.reduce((n, s) => n + s.sizeBytes, 0);
  log(`  ${files.length} sessions, ${(total / MB).toFixed(0)} MiB`);
  await readAll(files.map((f) => f.path)); // warms the page cache: every figure below is from memory
  let t0 = performance.now();
  await readAll(files.map((f) => f.path));
  const floor = performance.now() - t0;
  log(
    `  read every byte (4 MiB chunks, warm cache): ${floor.toFixed(0)} ms (${((total / MB / floor) * 1000).toFixed(0)} MiB/s)`,
  );
  const before = await baselineService(summaries);
  log(before ? `  before: ${BASELINE_REF}'s search code` : `  (${BASELINE_REF} not found: no before figures)`);
  const after = new SearchService(HOME, () => summaries);
  // An entry half-way through the session the scan reads last, and the same session open (its index in memory).
  const oldLines = readFileSync(paths[0], 'utf8').split('\n');
  const entryId = (JSON.parse(oldLines[Math.floor(oldLines.length / 2)]) as { id: string }).id;
  const key = files.find((f) => f.path === paths[0])!.key;
  t0 = performance.now();
  const ledger = await Ledger.open(paths[0]);
  log(`  (opened the last-scanned session for the open-index case in ${(performance.now() - t0).toFixed(0)} ms)`);
  const open: OpenIndex = {
    key,
    find: (id) => {
      const i = ledger.indexOf(id);
      return i === undefined ? null : { line: ledger.index.line[i], bytes: ledger.rawLine(i) };
    },
  };
  const withOpen = new SearchService(
    HOME,
    () => summaries,
    () => [open],
  );

  log(
    `  load average ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} on ${os.availableParallelism()} cores`,
  );
  log('  first hit (target ≤ 1000 ms on 1 GB), main → this branch:');
  for (const [label, query, match] of [
    ['rare phrase, in the session read last', RARE, 'text'],
    ['entry id, session not open (palette)', entryId, 'id'],
    ['entry id, session not open (search panel)', entryId, 'text'],
  ] as const) {
    const a = before ? await timeSearch(before, query, match, true) : null;
    const b = await timeSearch(after, query, match, true);
    const t = (x: Timed): string => `${ms(x.first)} (cpu ${ms(x.firstCpu)}, ${x.pages} pages)`;
    log(`    ${label}: ${a ? t(a) : '—'} → ${t(b)}`);
  }
  const w0 = { ...withOpen.work };
  const c = await timeSearch(withOpen, entryId, 'id', true);
  log(
    `    entry id, session open: ${ms(c.first)} (scanned ${withOpen.work.scannedBytes - w0.scannedBytes} bytes, ` +
      `from the open index: ${withOpen.work.fromOpenIndex - w0.fromOpenIndex})`,
  );
  log(`    (the palette on main asks one page: an id past the first ${EACH / MB} MiB scanned shows nothing)`);
  ledger.close();

  log('  every hit (whole scan), main → this branch:');
  for (const [label, query] of [
    ['common word', 'tokenizer'],
    ['rare phrase', RARE],
    ['no match', 'zzq-not-in-any-ledger'],
    ['no ASCII letters (every line decoded)', 'ünïcödé'],
  ] as const) {
    const a = before ? await timeSearch(before, query, 'text', false) : null;
    const b = await timeSearch(after, query, 'text', false);
    log(
      `    ${label} (${JSON.stringify(query)}): ${a ? `${ms(a.all)}` : '—'} → ${ms(b.all)}, ${b.hits} hits = ` +
        `${(b.all / floor).toFixed(1)}× the plain read${a && a.hits !== b.hits ? ` (main found ${a.hits}!)` : ''}`,
    );
  }
}
