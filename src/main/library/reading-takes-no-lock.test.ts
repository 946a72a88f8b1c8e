import { randomUUID } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, SessionSummary } from '../../shared/api';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { FIXTURES } from '../../test-support/fixtures';
import { useTempDir } from '../../test-support/temp-dir';
import type { ApiClient } from '../api/api-backend';
import { ExplorerBackend } from '../api/explorer-backend';
import { flockCalls } from '../core/flock';
import { makeWritable } from '../../test-support/make-writable';

/**
 * The explorer is a guest beside a running agent, and reading never takes
 * the agent's flock, not even to probe it (vak's `try_lock` fails with `Locked` when
 * it lands on a probe). Two checks: the flock module's own call count (every flock(2)
 * of this process goes through it), and, where strace is installed, the system calls
 * of a real process that lists, opens and reads a whole home.
 */

const tmp = useTempDir('vak-nolock-');
const SRC = resolve(import.meta.dirname, '../..');

function demoHome(): string {
  const home = join(tmp(), 'home');
  cpSync(join(FIXTURES, 'demo-home'), home, { recursive: true });
  makeWritable(home);
  return home;
}

const client: ApiClient = { id: 'nolock', push: () => undefined };
let backend: ExplorerBackend | null = null;
afterEach(async () => {
  await backend?.close();
  backend = null;
});

describe('reading takes no lock', () => {
  it('listing, opening and reading every session make no flock call; only a branch does', async () => {
    const before = flockCalls();
    backend = await ExplorerBackend.create({ home: demoHome(), isDemo: false, label: 't', lockPollMs: 10 });
    await backend.call('subscribe', { topic: 'library' }, client);
    const list = (await backend.call('listSessions', {}, client)) as SessionSummary[];
    expect(list.length).toBeGreaterThan(3);
    for (const s of list) {
      await backend.call('openSession', { key: s.key }, client);
      await backend.call('getTreeRows', { key: s.key, start: 0, count: 50, foldAudit: false }, client);
      const req = { key: s.key, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, overrides: {} };
      await backend.call('getLeafView', req, client);
      await backend.call('getLine', { key: s.key, offset: 0 }, client);
      await backend.call('getWarnings', { key: s.key }, client);
    }
    await new Promise((r) => setTimeout(r, 100)); // several lock polls of the library
    await backend.call('listSessions', {}, client);
    expect(flockCalls()).toBe(before);

    // The counter sees flock calls: a branch takes the lock (and releases it).
    const s = list.find((x) => x.unreadable === null && x.lock !== 'held')!;
    const info = (await backend.call('openSession', { key: s.key }, client)) as { activeLeaf: string | null };
    await backend.call(
      'branch',
      { key: s.key, parentId: info.activeLeaf, text: 'counted', idempotencyKey: randomUUID() },
      client,
    );
    expect(flockCalls()).toBe(before + 2);
  });
});

const HAVE_FLOCK = process.platform === 'linux' && spawnSync('flock', ['--version']).status === 0;
if (!HAVE_FLOCK) console.log('SKIPPED live lock test: needs Linux and util-linux flock(1)');

describe.runIf(HAVE_FLOCK)('library subscribers hear of an agent taking the lock', () => {
  it('from /proc/locks, without a flock call of ours', async () => {
    const home = demoHome();
    backend = await ExplorerBackend.create({ home, isDemo: false, label: 't', lockPollMs: 20 });
    const events: ApiEvent[] = [];
    const c: ApiClient = { id: 'lock-watch', push: (e) => void events.push(e) };
    await backend.call('subscribe', { topic: 'library' }, c);
    const list = (await backend.call('listSessions', {}, c)) as SessionSummary[];
    const key = list[0].key;
    const calls = flockCalls();
    const holder = spawn('flock', ['-n', join(home, key), '-c', 'echo locked; sleep 30'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.once('data', () => resolve());
        holder.once('exit', (code) => reject(new Error(`flock exited ${code}`)));
      });
      const held = (): boolean =>
        events.some((e) => e.type === 'library' && e.changed.some((s) => s.key === key && s.lock === 'held'));
      for (let k = 0; k < 200 && !held(); k++) await new Promise((r) => setTimeout(r, 10));
      expect(held()).toBe(true);
      expect(flockCalls()).toBe(calls);
    } finally {
      process.kill(-holder.pid!, 'SIGKILL');
    }
  });
});

const HAVE_STRACE = spawnSync('strace', ['-V']).status === 0;
if (!HAVE_STRACE) console.log('SKIPPED strace test (reading makes no flock system call): strace is not installed');

describe.runIf(HAVE_STRACE)('reading takes no lock, seen by strace', () => {
  /** Runs a real node process over `home` under `strace -f -e trace=flock`; returns its flock calls. */
  function tracedFlockCalls(home: string, mode: 'read' | 'branch'): string[] {
    const d = tmp();
    const script = join(d, 'read-home.mjs');
    const mod = (p: string): string => JSON.stringify(pathToFileURL(join(SRC, p)).href);
    writeFileSync(
      script,
      `const { SessionLibrary } = await import(${mod('main/library/session-library.ts')});
const { SessionCache } = await import(${mod('main/library/session-cache.ts')});
const [home, mode] = process.argv.slice(2);
const lib = new SessionLibrary(home);
const list = await lib.list();
const cache = new SessionCache(home, 2);
let entries = 0;
for (const s of list) {
  if (s.unreadable) continue;
  const o = await cache.acquire(s.key);
  o.ledger.lineAt(0, 4096);
  for (let i = 0; i < o.ledger.index.count; i++, entries++) o.ledger.entry(i);
  o.ledger.warnings();
  await cache.refresh(s.key);
}
await lib.list();
if (mode === 'branch') {
  const k = list.find((s) => !s.unreadable).key;
  const o = await cache.acquire(k);
  await cache.branch(k, o.ledger.index.ids[o.ledger.index.activeLeaf], 'traced');
}
cache.closeAll();
console.log(JSON.stringify({ sessions: list.length, entries }));
`,
    );
    const out = join(d, 'strace.out');
    const node = [process.execPath, '--import', 'tsx', script, home, mode];
    const r = spawnSync('strace', ['-f', '-qq', '-e', 'trace=flock', '-o', out, ...node], {
      cwd: resolve(SRC, '..'), // where `--import tsx` is found
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const done = JSON.parse(r.stdout.trim().split('\n').pop()!) as { sessions: number; entries: number };
    expect(done.sessions).toBeGreaterThan(3);
    expect(done.entries).toBeGreaterThan(100);
    return readFileSync(out, 'utf8')
      .split('\n')
      .filter((l) => /\bflock\(/.test(l));
  }

  it('a process that lists, opens and reads a whole home makes no flock(2) call', () => {
    expect(tracedFlockCalls(demoHome(), 'read')).toEqual([]);
  });

  it('the same process branching makes exactly its lock and unlock calls (strace sees them)', () => {
    const calls = tracedFlockCalls(demoHome(), 'branch');
    expect(calls.map((l) => /LOCK_\w+(\|LOCK_\w+)?/.exec(l)?.[0])).toEqual(['LOCK_EX|LOCK_NB', 'LOCK_UN']);
  });
});
