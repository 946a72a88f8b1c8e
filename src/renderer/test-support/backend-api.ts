/**
 * The renderer's tests talk to the REAL backend: an `ExplorerBackend` in the test's own
 * process, over a temp copy of the shared fixtures, behind the same `Api` the transports give
 * the renderer (answers go through JSON like they do on the wire; failures arrive as the
 * renderer's `ApiError`). Test support only: it may import Node and the main side, the
 * renderer's own source may not.
 */
import {
  appendFileSync,
  closeSync,
  openSync,
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ApiClient } from '../../main/api/api-backend';
import { ExplorerBackend } from '../../main/api/explorer-backend';
import { cwdHash } from '../../main/core/fnv1a64';
import { tryLockExclusive, unlock } from '../../main/core/flock';
import type { Api, ApiEvent, ApiMethod, OpenFileOutcome } from '../../shared/api';
import { API_METHOD_NAMES } from '../../shared/api-methods';
import { sessionKey } from '../../shared/session-key';
import { ApiError } from '../api/api-methods';

/** ../shared/fixtures, read in place and copied per test (never changed). */
export const FIXTURES = join(import.meta.dirname, '../../../../shared/fixtures');

export interface BackendApi extends Api {
  /** The temp home the backend serves. */
  readonly home: string;
  /** Every request, in order (what the UI asked for, checked by tests). */
  /** Every call, with the signal it was given (a transport passes it on: the backend cancels on abort). */
  readonly calls: { method: ApiMethod; req: unknown; signal?: AbortSignal }[];
  /** Every pushed event, in order. */
  readonly events: ApiEvent[];
  /** The session key of a fixture copied in by name. */
  keyOf(fixture: string): string;
  /** Appends raw lines to a session file as an agent would (the watcher tells the backend). */
  appendLines(key: string, lines: string[]): void;
  /** Opens files by path as the desktop app does (its dialog, a drop): ExplorerBackend.openFiles. */
  openFiles(paths: string[]): Promise<OpenFileOutcome[]>;
  /** Deletes a session file (the watcher tells the backend). */
  removeSession(key: string): void;
  /** Stops the backend and removes the temp home. */
  close(): Promise<void>;
}

/**
 * Writes a hash-linked ledger (§2: prev_hash is the SHA-256 of the previous line) with ids the
 * test chooses, for shapes no fixture has (a long chain, hostile text, live appends).
 */
export class SessionWriter {
  private prevHash: string | null = null;
  private lines: string[] = [];
  private clock = Date.UTC(2026, 10, 29, 9, 0, 0);
  /** Lines not yet taken by `take()`. */
  private pending = 0;

  add(id: string, parentId: string | null, kind: string, payload: Record<string, unknown>): this {
    this.clock += 1000;
    const line = JSON.stringify({
      id,
      parent_id: parentId,
      ts: new Date(this.clock).toISOString(),
      prev_hash: this.prevHash,
      kind,
      ...payload,
    });
    this.prevHash = createHash('sha256').update(line, 'utf8').digest('hex');
    this.lines.push(line);
    this.pending++;
    return this;
  }

  header(cwd = '/home/ana/projects/mdlite'): this {
    return this.add('h', null, 'header', {
      session_id: 'written',
      app_version: '0.9.3',
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      system_prompt: 'You are vak.',
      tools: [],
      permission_mode: 'ask',
      cwd,
      parent_session: null,
    });
  }

  message(id: string, parentId: string, role: 'user' | 'assistant' | 'tool', content: unknown[]): this {
    return this.add(id, parentId, 'message', { message: { role, content } });
  }

  /** The lines written since the last take. */
  take(): string[] {
    const out = this.lines.slice(this.lines.length - this.pending);
    this.pending = 0;
    return out;
  }
}

export interface BackendApiOptions {
  /** Single fixtures (`branching`, `linear`…) laid out as sessions of agent `vak`. */
  fixtures?: string[];
  /** Sessions written by the test, by name (each its own file of agent `vak`). */
  written?: Record<string, SessionWriter>;
  /** Copy the demo home (7 sessions, 2 agents) too. */
  demoHome?: boolean;
  /** How the home introduces itself (`getHome`). */
  isDemo?: boolean;
  label?: string;
  /** Sessions an "agent" (this test process) holds the flock on before the backend starts. */
  locked?: string[];
  /** The app's data folder (its `prices.json`); none by default (bundled prices only). */
  userDataDir?: string;
  /** Sessions past this many bytes open in steps of as many (ExplorerBackendOptions.firstReadBytes). */
  firstReadBytes?: number;
  /** What one answer of a context series may carry (ExplorerBackendOptions.seriesPageBytes). */
  seriesPageBytes?: number;
  /** When a series' build first tells its progress, and how often (ExplorerBackendOptions.seriesProgressMs). */
  seriesProgressMs?: { first: number; every: number };
  /** Files opened by path as the backend starts, and whether it opens more (the desktop app). */
  openFiles?: string[];
  openByPath?: boolean;
}

const makeWritable = (p: string): void => {
  const dir = statSync(p).isDirectory();
  chmodSync(p, dir ? 0o755 : 0o644);
  if (dir) for (const n of readdirSync(p)) makeWritable(join(p, n));
};

/** The cwd a fixture's header names (the folder its session lives in is the hash of it). */
function headerCwd(file: string): string {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0];
  try {
    const h = JSON.parse(first) as { cwd?: unknown };
    if (typeof h.cwd === 'string') return h.cwd;
  } catch {
    // A fixture without a readable header (missing-header, damaged) goes to a folder of its own.
  }
  return '/fixtures/no-header';
}

/** Takes the agent's exclusive flock on a file, as a running agent holds it; returns the release. */
function holdLock(path: string): () => void {
  const fd = openSync(path, 'r');
  if (tryLockExclusive(fd) !== 'locked') throw new Error(`could not lock ${path}`);
  return () => {
    unlock(fd);
    closeSync(fd);
  };
}

/** Line `n` (1-based) of a fixture, as text (tests compare what the UI shows with the file). */
export function fixtureLine(name: string, n: number): string {
  return readFileSync(join(FIXTURES, `${name}.jsonl`), 'utf8').split('\n')[n - 1];
}

/** A real backend over a temp home made of fixture copies, as an `Api`. */
export async function createBackendApi(opts: BackendApiOptions = { fixtures: ['branching'] }): Promise<BackendApi> {
  const home = mkdtempSync(join(tmpdir(), 'vak-renderer-'));
  const keys = new Map<string, string>();
  if (opts.demoHome) cpSync(join(FIXTURES, 'demo-home'), home, { recursive: true });
  for (const name of opts.fixtures ?? []) {
    const src = join(FIXTURES, `${name}.jsonl`);
    const key = sessionKey('vak', cwdHash(headerCwd(src)), name);
    mkdirSync(dirname(join(home, key)), { recursive: true });
    cpSync(src, join(home, ...key.split('/')));
    keys.set(name, key);
  }
  for (const [name, w] of Object.entries(opts.written ?? {})) {
    const key = sessionKey('vak', cwdHash('/home/ana/projects/mdlite'), name);
    mkdirSync(dirname(join(home, key)), { recursive: true });
    appendFileSync(
      join(home, ...key.split('/')),
      w
        .take()
        .map((l) => `${l}\n`)
        .join(''),
    );
    keys.set(name, key);
  }
  makeWritable(home);
  const locks = (opts.locked ?? []).map((name) => holdLock(join(home, ...(keys.get(name) ?? name).split('/'))));
  const backend = await ExplorerBackend.create({
    home,
    isDemo: opts.isDemo ?? false,
    label: opts.label ?? 'test home',
    lockPollMs: 0,
    ...(opts.userDataDir ? { userDataDir: opts.userDataDir } : {}),
    ...(opts.firstReadBytes ? { firstReadBytes: opts.firstReadBytes } : {}),
    ...(opts.seriesPageBytes ? { seriesPageBytes: opts.seriesPageBytes } : {}),
    ...(opts.seriesProgressMs ? { seriesProgressMs: opts.seriesProgressMs } : {}),
    ...(opts.openFiles ? { openFiles: opts.openFiles } : {}),
    ...(opts.openByPath ? { openByPath: true } : {}),
  });

  const listeners = new Set<(e: ApiEvent) => void>();
  const calls: { method: ApiMethod; req: unknown; signal?: AbortSignal }[] = [];
  const events: ApiEvent[] = [];
  const client: ApiClient = {
    id: 'renderer-test',
    // A transport delivers later, never inside the backend's own call.
    push: (e) =>
      void setTimeout(() => {
        events.push(e);
        for (const l of [...listeners]) l(JSON.parse(JSON.stringify(e)) as ApiEvent);
      }, 0),
  };
  const api: Record<string, unknown> = {};
  for (const method of API_METHOD_NAMES) {
    api[method] = async (req: unknown, opts?: { signal?: AbortSignal }) => {
      const signal = opts?.signal;
      calls.push({ method, req, ...(signal ? { signal } : {}) });
      try {
        const res = await backend.call(method, JSON.parse(JSON.stringify(req ?? {})), client, signal);
        return res === undefined ? res : JSON.parse(JSON.stringify(res));
      } catch (e) {
        const { code, message } = e as { code?: string; message?: string };
        throw new ApiError(code ?? 'internal', message ?? String(e));
      }
    };
  }
  return Object.assign(api as Api, {
    home,
    calls,
    events,
    onEvent(l: (e: ApiEvent) => void) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
    keyOf(fixture: string): string {
      const k = keys.get(fixture);
      if (!k) throw new Error(`fixture ${fixture} was not copied in`);
      return k;
    },
    appendLines(key: string, lines: string[]): void {
      appendFileSync(join(home, ...key.split('/')), lines.map((l) => `${l}\n`).join(''));
    },
    openFiles: (paths: string[]) => backend.openFiles(paths),
    removeSession(key: string): void {
      rmSync(join(home, ...key.split('/')));
    },
    async close(): Promise<void> {
      backend.disconnect(client);
      await backend.close();
      for (const release of locks) release();
      rmSync(home, { recursive: true, force: true });
    },
  });
}
