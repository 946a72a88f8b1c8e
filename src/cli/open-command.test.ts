import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { FIXTURES } from '../test-support/fixtures';
import { useTempDir } from '../test-support/temp-dir';
import { runCli } from './cli';
import { electronBinaryIn, openCommand } from './open-command';

const tempDir = useTempDir('vak-open-cmd-');

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s) }, out, err };
}

/** A built app folder (out/main/index.js) and a ledger to open. */
function setup(): { app: string; file: string } {
  const dir = tempDir();
  const app = join(dir, 'app');
  mkdirSync(join(app, 'out', 'main'), { recursive: true });
  writeFileSync(join(app, 'out', 'main', 'index.js'), '');
  const file = join(dir, 'colleague session.jsonl');
  copyFileSync(join(FIXTURES, 'linear.jsonl'), file);
  return { app, file };
}

describe('vak-explorer open FILE / vak-explorer FILE', () => {
  it('finds the Electron binary as the electron package does, and says what is missing', () => {
    const root = tempDir();
    expect(electronBinaryIn(root, {})).toEqual({ missing: 'the electron package is not installed' });
    const pkg = join(root, 'node_modules', 'electron');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), '{}');
    expect(electronBinaryIn(root, {})).toMatchObject({ missing: expect.stringMatching(/never downloaded/) });
    writeFileSync(join(pkg, 'path.txt'), 'electron');
    expect(electronBinaryIn(root, {})).toMatchObject({ missing: expect.stringMatching(/binary is missing/) });
    writeFileSync(join(pkg, 'dist', 'electron'), '');
    expect(electronBinaryIn(root, {})).toEqual({ path: join(pkg, 'dist', 'electron') });
  });

  it('starts the desktop app on the files (absolute paths), detached', async () => {
    const { app, file } = setup();
    const startApp = vi.fn();
    const t = io();
    const code = await openCommand([file], t.io, {
      electronBinary: () => ({ path: '/opt/electron' }),
      appDir: app,
      startApp,
    });
    expect(code).toBe(0);
    expect(startApp).toHaveBeenCalledWith('/opt/electron', [app, file]);
    expect(t.out.join('')).toContain(`opening ${file} in the desktop app`);
  });

  it('without the Electron binary, says so and gives the serve --file command instead', async () => {
    const { app, file } = setup();
    const startApp = vi.fn();
    const t = io();
    const code = await openCommand([file], t.io, {
      electronBinary: () => ({ missing: 'the Electron binary is not installed (offline install)' }),
      appDir: app,
      startApp,
    });
    expect(code).toBe(2);
    expect(startApp).not.toHaveBeenCalled();
    const err = t.err.join('');
    expect(err).toContain('the desktop app cannot start here: the Electron binary is not installed');
    expect(err).toContain(`vak-explorer serve --file '${file}'`);
  });

  it('refuses a file that is not a ledger before any window opens', async () => {
    const { app } = setup();
    const notes = join(app, 'notes.jsonl');
    writeFileSync(notes, 'not json\n');
    const startApp = vi.fn();
    const t = io();
    expect(
      await openCommand([notes], t.io, { electronBinary: () => ({ path: '/opt/electron' }), appDir: app, startApp }),
    ).toBe(2);
    expect(t.err.join('')).toBe(
      `vak-explorer: open: ${notes} is not a vak ledger (its line 1 is not a ledger entry with id, parent_id, ts, prev_hash and kind); it is not read; nothing is opened\n`,
    );
    expect(startApp).not.toHaveBeenCalled();
  });

  it('a path as the first argument is `open`; a word that is no file stays an unknown command', async () => {
    // This checkout has no Electron binary (CI, here): the real default deps say so.
    const { file } = setup();
    const t = io();
    const code = await runCli([file], t.io);
    expect(code).toBe(2);
    expect(t.err.join('')).toMatch(
      /vak-explorer: open: (the desktop app cannot start here|the desktop app is not built)/,
    );
    const u = io();
    expect(await runCli(['frobnicate'], u.io)).toBe(2);
    expect(u.err.join('')).toContain('unknown command "frobnicate"');
  });
});
