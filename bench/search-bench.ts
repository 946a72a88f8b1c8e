// npm run bench -- search: full-text search over ~1 GB of generated ledgers.
import { existsSync, mkdirSync, promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateSession } from '../src/generator';
import { cwdHash } from '../src/main/core/fnv1a64';
import { scanHome } from '../src/main/core/home';
import { readSessionSummary } from '../src/main/library/session-summary';
import { SearchService } from '../src/main/search/search-service';

const HOME = join(import.meta.dirname, '.data', 'search-home');
const SESSIONS = 16;
const MB = 1 << 20;
const EACH = 64 * MB;

/** 16 sessions of 64 MiB in two agents, generated once (bench/.data is git-ignored). */
function searchHome(log: (s: string) => void): void {
  for (let k = 0; k < SESSIONS; k++) {
    const agent = k % 4 === 0 ? 'reviewer' : 'vak';
    const cwd = `/home/ana/projects/p${k % 5}`;
    const dir = join(HOME, 'agents', agent, 'sessions', cwdHash(cwd));
    const sessionId = `01a20000-0000-7000-8000-${String(k).padStart(12, '0')}`;
    const path = join(dir, `${sessionId}.jsonl`);
    if (existsSync(path)) continue;
    mkdirSync(dir, { recursive: true });
    log(`  generating ${path} …`);
    generateSession({ seed: 500 + k, bytes: EACH, cwd, sessionId, path, startMs: Date.UTC(2026, 10, 1 + k) });
  }
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

export async function runSearchBench(log: (s: string) => void): Promise<void> {
  searchHome(log);
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
  const svc = new SearchService(HOME, () => summaries);
  let id = 0;
  for (const [label, query] of [
    ['common word', 'tokenizer'],
    ['rare text', 'speed up the CI job'],
    ['no match (whole scan)', 'zzq-not-in-any-ledger'],
    ['no ASCII letters (every line decoded)', 'ünïcödé'],
  ] as const) {
    const searchId = `b${++id}`;
    t0 = performance.now();
    let page = await svc.search({ searchId, query, scope: { kind: 'home' }, filters: {}, limit: 50 }, 'bench');
    const first = performance.now() - t0;
    const firstHits = page.hits;
    let pages = 1;
    let hits = page.hits;
    while (page.cursor && pages < 400) {
      page = await svc.search(
        { searchId, query, scope: { kind: 'home' }, filters: {}, limit: 500, cursor: page.cursor },
        'bench',
      );
      pages++;
      hits += page.hits;
    }
    const all = performance.now() - t0;
    log(
      `  ${label} (${JSON.stringify(query)}): first page ${first.toFixed(0)} ms (${firstHits} hits, target < 1000 ms); ` +
        `all ${hits} hits in ${all.toFixed(0)} ms over ${pages} pages = ${(all / floor).toFixed(2)}× the plain read`,
    );
  }
}
