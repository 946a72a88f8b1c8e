import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanHome } from '../core/home';
import { DEMO_LABEL, defaultUserDataDir, HomeError, resolveHome } from './resolve-home';

const FIXTURE_HOME = join(__dirname, '../../../../shared/fixtures/demo-home');

let dir: string;
let bundled: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vak-resolve-'));
  bundled = join(dir, 'bundled');
  cpSync(FIXTURE_HOME, bundled, { recursive: true }); // read-only files, as a packaged app has them
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveHome', () => {
  it('uses $VAK_HOME when it holds a session', async () => {
    const home = join(dir, 'real');
    mkdirSync(join(home, 'agents/vak/sessions/x'), { recursive: true });
    writeFileSync(join(home, 'agents/vak/sessions/x/s.jsonl'), '{}\n');
    const r = await resolveHome({ env: { VAK_HOME: home }, userDataDir: join(dir, 'data'), bundledDemoDir: bundled });
    expect(r).toEqual({ home, isDemo: false, label: home, userHome: homedir() });
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('opens a writable copy of the bundled demo when the home has no sessions, and keeps it', async () => {
    const opts = { env: { VAK_HOME: join(dir, 'empty') }, userDataDir: join(dir, 'data'), bundledDemoDir: bundled };
    const r = await resolveHome(opts);
    expect(r).toEqual({ home: join(dir, 'data', 'demo-home'), isDemo: true, label: DEMO_LABEL, userHome: homedir() });
    const copies = scanHome(r.home);
    expect(copies).toHaveLength(scanHome(bundled).length);
    expect(statSync(copies[0].path).mode & 0o200).toBe(0o200);
    // A branch made in the demo (a change to the copy) survives the next start.
    writeFileSync(copies[0].path, 'changed\n', { flag: 'a' });
    const again = await resolveHome(opts);
    expect(again.home).toBe(r.home);
    expect(readFileSync(copies[0].path, 'utf8').endsWith('changed\n')).toBe(true);
    // The bundled files are untouched.
    expect(readFileSync(scanHome(bundled)[0].path, 'utf8').endsWith('changed\n')).toBe(false);
  });

  it('falls back to the empty home when there is no bundled demo', async () => {
    const r = await resolveHome({
      env: { VAK_HOME: join(dir, 'empty') },
      userDataDir: join(dir, 'data'),
      bundledDemoDir: join(dir, 'none'),
    });
    expect(r.isDemo).toBe(false);
  });

  it('shows a named home as it is, never the demo; refuses one that is no folder', async () => {
    const opts = { env: {}, userDataDir: join(dir, 'data'), bundledDemoDir: bundled };
    const empty = join(dir, 'empty-but-there');
    mkdirSync(empty);
    expect(await resolveHome({ ...opts, home: empty })).toEqual({
      home: empty,
      isDemo: false,
      label: empty,
      userHome: homedir(),
    });
    symlinkSync('loop', join(dir, 'loop'));
    for (const [home, problem] of [
      [join(dir, 'missing'), /missing does not exist$/],
      [join(bundled, 'agents', 'nope', 'x'), /does not exist/],
      [join(dir, 'loop'), /is a symbolic link loop \(ELOOP: too many levels of symbolic links\)$/],
    ] as const) {
      const e = await resolveHome({ ...opts, home }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(HomeError);
      expect((e as HomeError).message).toMatch(problem);
    }
    expect(existsSync(join(dir, 'data'))).toBe(false); // no demo copy was made
  });

  it('puts user data under $XDG_DATA_HOME', () => {
    expect(defaultUserDataDir({ XDG_DATA_HOME: '/d' })).toBe('/d/vak-explorer');
    expect(defaultUserDataDir({})).toMatch(/\.local\/share\/vak-explorer$/);
  });
});
