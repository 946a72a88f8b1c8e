import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openerCommand } from '../main/server/browser-opener';
import { FakeBackend } from '../main/server/testing/fake-backend';
import { rawRequest } from '../main/server/testing/http-helpers';
import type { HomeInfo } from '../shared/api';
import { FIXTURES } from '../test-support/fixtures';
import { UsageError } from './args';
import { serveCommand, type ServeDeps } from './serve-command';

let dir: string;
let staticDir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vak-serve-'));
  staticDir = join(dir, 'renderer');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>vak explorer</title>');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s) }, out, err };
}

/** Deps whose untilStopped resolves when the test calls stop(). */
function fakeDeps(over: Partial<ServeDeps> = {}) {
  let stop!: (signal: string) => void;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  const backend = new FakeBackend();
  const home: HomeInfo = { home: join(dir, 'demo'), isDemo: true, label: 'Demo home (bundled)' };
  const deps: Partial<ServeDeps> = {
    env: { VAK_HOME: '/from/env' },
    staticDir,
    bundledDemoDir: join(dir, 'bundled'),
    userDataDir: join(dir, 'data'),
    resolveHome: vi.fn(async () => home),
    createBackend: vi.fn(async () => backend),
    openBrowser: vi.fn(),
    untilStopped: () => stopped,
    ...over,
  };
  return { deps, backend, stop: (s = 'SIGINT') => stop(s) };
}

describe('vak-explorer serve', () => {
  it('exits 2 and says to build when out/renderer is missing', async () => {
    const t = io();
    const code = await serveCommand([], t.io, { staticDir: join(dir, 'nope') });
    expect(code).toBe(2);
    expect(t.err.join('')).toContain('run `npm run build` first');
  });

  it('rejects bad arguments as usage errors', async () => {
    const t = io();
    await expect(serveCommand(['--port', 'x'], t.io, fakeDeps().deps)).rejects.toThrow(UsageError);
    await expect(serveCommand(['--port', '70000'], t.io, fakeDeps().deps)).rejects.toThrow(UsageError);
    await expect(serveCommand(['file.jsonl'], t.io, fakeDeps().deps)).rejects.toThrow(UsageError);
    await expect(serveCommand(['--bind', '0.0.0.0'], t.io, fakeDeps().deps)).rejects.toThrow(UsageError);
  });

  it('prints the tokened URL, serves until a signal, then closes the backend', async () => {
    const t = io();
    const f = fakeDeps();
    const running = serveCommand(['--no-open'], t.io, f.deps);
    await expect.poll(() => t.out.join('')).toMatch(/serving/);
    const line = t.out.join('');
    expect(line).toMatch(
      /^vak-explorer serving Demo home \(bundled\) at http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}\n$/,
    );
    const url = new URL(line.split(' at ')[1].trim());
    const r = await rawRequest(Number(url.port), url.pathname + url.search);
    expect(r.status).toBe(303);
    expect(f.deps.openBrowser).not.toHaveBeenCalled();
    f.stop('SIGTERM');
    expect(await running).toBe(0);
    expect(f.backend.closed).toBe(true);
    await expect(rawRequest(Number(url.port), '/')).rejects.toThrow();
  });

  it('passes --home to resolveHome, else the environment', async () => {
    const t = io();
    const a = fakeDeps();
    const running = serveCommand(['--home', dir, '--no-open'], t.io, a.deps);
    await expect.poll(() => t.out.length).toBe(1);
    a.stop();
    await running;
    expect(a.deps.resolveHome).toHaveBeenCalledWith(
      expect.objectContaining({ home: dir, env: { VAK_HOME: '/from/env' }, userDataDir: join(dir, 'data') }),
    );
    const b = fakeDeps();
    const t2 = io();
    const running2 = serveCommand(['--no-open'], t2.io, b.deps);
    await expect.poll(() => t2.out.length).toBe(1);
    b.stop();
    await running2;
    expect(b.deps.resolveHome).toHaveBeenCalledWith(
      expect.objectContaining({ home: undefined, env: { VAK_HOME: '/from/env' } }),
    );
  });

  it('refuses a --home that is no folder before anything is resolved or served', async () => {
    writeFileSync(join(dir, 'file'), '');
    for (const [home, problem] of [
      [join(dir, 'nope'), /does not exist/],
      [join(dir, 'file'), /is a regular file, not a folder/],
      ['', /names no folder/],
    ] as const) {
      const t = io();
      const f = fakeDeps();
      expect(await serveCommand(['--home', home, '--no-open'], t.io, f.deps)).toBe(2);
      expect(t.err.join('')).toMatch(problem);
      expect(t.out).toEqual([]);
      expect(f.deps.resolveHome).not.toHaveBeenCalled();
      expect(f.deps.createBackend).not.toHaveBeenCalled();
    }
  });

  it('takes --file again and again, and hands every file (absolute) to the backend', async () => {
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    copyFileSync(join(FIXTURES, 'linear.jsonl'), a);
    copyFileSync(join(FIXTURES, 'branching.jsonl'), b);
    const t = io();
    const f = fakeDeps();
    const running = serveCommand(['--file', a, '--file', relative(process.cwd(), b), '--no-open'], t.io, f.deps);
    await expect.poll(() => t.out.length).toBe(1);
    f.stop();
    expect(await running).toBe(0);
    // The secret survey is on unless asked otherwise.
    expect(f.deps.createBackend).toHaveBeenCalledWith(expect.anything(), [a, b], true);
  });

  it('leaves the secret survey off with --no-secret-survey', async () => {
    const t = io();
    const f = fakeDeps();
    const running = serveCommand(['--no-open', '--no-secret-survey'], t.io, f.deps);
    await expect.poll(() => t.out.length).toBe(1);
    f.stop();
    expect(await running).toBe(0);
    expect(f.deps.createBackend).toHaveBeenCalledWith(expect.anything(), [], false);
  });

  it('refuses a --file that is not a ledger, a folder or a FIFO, naming it, before anything is served', async () => {
    const good = join(dir, 'a.jsonl');
    copyFileSync(join(FIXTURES, 'linear.jsonl'), good);
    const notes = join(dir, 'notes.jsonl');
    writeFileSync(notes, 'hello\n');
    const fifo = join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    for (const [file, problem] of [
      [notes, `${notes} is not a vak ledger`],
      [dir, `${dir} is a directory, not a regular file`],
      [fifo, `${fifo} is a FIFO (named pipe), not a regular file`],
      [join(dir, 'gone.jsonl'), `${join(dir, 'gone.jsonl')} does not exist`],
    ] as const) {
      const t = io();
      const f = fakeDeps();
      expect(await serveCommand(['--file', good, '--file', file], t.io, f.deps)).toBe(2);
      expect(t.err.join('')).toContain(`vak-explorer: serve: --file ${problem}`);
      expect(t.err.join('')).toMatch(/nothing is served\n$/);
      expect(t.out).toEqual([]);
      expect(f.deps.createBackend).not.toHaveBeenCalled();
    }
  });

  it('opens the browser with a one-time URL, not the printed token', async () => {
    const t = io();
    const f = fakeDeps();
    const running = serveCommand([], t.io, f.deps);
    await expect.poll(() => t.out.length).toBe(1);
    f.stop();
    await running;
    const opened = vi.mocked(f.deps.openBrowser!).mock.calls[0][0];
    expect(opened).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
    expect(t.out.join('')).not.toContain(opened);
  });

  it('uses the platform opener with the URL as a single argument', () => {
    const url = 'http://127.0.0.1:1/?token=a&b';
    expect(openerCommand('linux', url)).toEqual(['xdg-open', [url]]);
    expect(openerCommand('darwin', url)).toEqual(['open', [url]]);
    expect(openerCommand('win32', url)).toEqual(['rundll32', ['url.dll,FileProtocolHandler', url]]);
  });
});
