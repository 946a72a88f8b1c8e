import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cwdMatchesFolder,
  defaultHome,
  listAgents,
  listCwdFolders,
  listSessionFiles,
  parseSessionKey,
  scanHome,
  sessionFileOf,
  sessionKey,
} from './home';

const FIXTURE_HOME = join(__dirname, '../../../../shared/fixtures/demo-home');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vak-home-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function put(rel: string, text = '{}\n'): void {
  const p = join(dir, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
}

describe('home discovery (§1)', () => {
  it('defaults to ~/.vak and honours VAK_HOME', () => {
    expect(defaultHome({ VAK_HOME: '/x/y' })).toBe('/x/y');
    expect(defaultHome({})).toMatch(/\.vak$/);
    expect(defaultHome({ VAK_HOME: '' })).toMatch(/\.vak$/);
  });

  it('lists agents, cwd folders and sessions, ignoring what is not a session', () => {
    put('agents/vak/sessions/aaaa/s1.jsonl');
    put('agents/vak/sessions/aaaa/s2.jsonl');
    put('agents/vak/sessions/aaaa/notes.txt');
    put('agents/vak/sessions/aaaa/.jsonl');
    put('agents/vak/sessions/bbbb/s3.jsonl');
    put('agents/reviewer/sessions/aaaa/s4.jsonl');
    put('agents/stray.jsonl');
    mkdirSync(join(dir, 'agents/empty'));
    expect(listAgents(dir)).toEqual(['empty', 'reviewer', 'vak']);
    expect(listCwdFolders(dir, 'vak')).toEqual(['aaaa', 'bbbb']);
    expect(listCwdFolders(dir, 'empty')).toEqual([]);
    expect(listSessionFiles(dir, 'vak', 'aaaa').map((f) => f.sessionId)).toEqual(['s1', 's2']);
    const all = scanHome(dir);
    expect(all.map((f) => f.key)).toEqual([
      'agents/reviewer/sessions/aaaa/s4.jsonl',
      'agents/vak/sessions/aaaa/s1.jsonl',
      'agents/vak/sessions/aaaa/s2.jsonl',
      'agents/vak/sessions/bbbb/s3.jsonl',
    ]);
    expect(all[0]).toMatchObject({ agent: 'reviewer', cwdHash: 'aaaa', sessionId: 's4' });
    expect(all[0].path).toBe(join(dir, 'agents/reviewer/sessions/aaaa/s4.jsonl'));
  });

  it('finds nothing in a missing or empty home', () => {
    expect(scanHome(join(dir, 'nope'))).toEqual([]);
    expect(scanHome(dir)).toEqual([]);
  });

  it('finds the 7 sessions of the fixture demo home', () => {
    const files = scanHome(FIXTURE_HOME);
    expect(files).toHaveLength(7);
    expect(new Set(files.map((f) => f.agent))).toEqual(new Set(['vak', 'reviewer']));
  });

  it('round-trips keys and rejects what is not one', () => {
    const k = sessionKey('vak', '70929a3c84065db2', 'abc');
    expect(parseSessionKey(k)).toEqual({ agent: 'vak', cwdHash: '70929a3c84065db2', sessionId: 'abc' });
    expect(parseSessionKey('agents/../sessions/x/y.jsonl')).toBeNull();
    expect(parseSessionKey('agents/vak/sessions/x/y.txt')).toBeNull();
    expect(parseSessionKey('/etc/passwd')).toBeNull();
    expect(sessionFileOf('/h', k)?.path).toBe('/h/agents/vak/sessions/70929a3c84065db2/abc.jsonl');
  });

  it('checks a folder name against the header cwd with FNV-1a 64 (spec vectors)', () => {
    expect(cwdMatchesFolder('70929a3c84065db2', '/home/ana/projects/vak')).toBe(true);
    expect(cwdMatchesFolder('2866a2b51b93f309', '/tmp/ünï')).toBe(true);
    expect(cwdMatchesFolder('cbf29ce484222325', '')).toBe(true);
    expect(cwdMatchesFolder('70929a3c84065db2', '/home/ana/projects/other')).toBe(false);
  });
});
