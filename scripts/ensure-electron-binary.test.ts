// Offline, `npm install` and `npm start` print the friendly note alone: the Electron downloader's
// stack trace (its install.js failing) is kept back.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';

let dir: string;
beforeEach(() => {
  // The script beside a fake electron package whose downloader fails as it does offline.
  dir = mkdtempSync(join(tmpdir(), 'vak-ensure-electron-'));
  mkdirSync(join(dir, 'scripts'));
  copyFileSync(
    join(import.meta.dirname, 'ensure-electron-binary.mjs'),
    join(dir, 'scripts', 'ensure-electron-binary.mjs'),
  );
  const electron = join(dir, 'node_modules', 'electron');
  mkdirSync(electron, { recursive: true });
  writeFileSync(join(electron, 'package.json'), JSON.stringify({ name: 'electron', version: '0.0.0' }));
  writeFileSync(
    join(electron, 'install.js'),
    "const e = new Error('getaddrinfo ENOTFOUND github.com'); console.error(e.stack); process.exit(1);\n",
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(process.execPath, [join(dir, 'scripts', 'ensure-electron-binary.mjs'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '' },
  });

for (const [when, args, status] of [
  ['postinstall', [], 0],
  ['prestart', ['--for-start'], 1],
] as const) {
  it(`${when}: offline prints the note alone, no stack trace`, () => {
    const r = run(...args);
    expect(r.status).toBe(status);
    const out = r.stdout + r.stderr;
    expect(out).toContain('The Electron binary could not be downloaded (offline?)');
    expect(out).not.toContain('ENOTFOUND');
    expect(out).not.toMatch(/^\s+at /m);
  });
}
