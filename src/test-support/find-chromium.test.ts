import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findChromium, NO_CHROMIUM_MESSAGE } from './find-chromium';
import { useTempDir } from './temp-dir';

/** A real executable file (a shell script) at `path`. */
function executable(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, 0o755);
  return path;
}

describe('findChromium: VAK_CHROMIUM, then Playwright’s browser, then PATH', () => {
  const tempDir = useTempDir('vak-find-chromium-');
  it('prefers VAK_CHROMIUM over everything else', () => {
    const dir = tempDir();
    const mine = executable(join(dir, 'mine', 'chrome'));
    const pw = executable(join(dir, 'pw', 'chrome'));
    executable(join(dir, 'bin', 'chromium'));
    expect(findChromium({ env: { VAK_CHROMIUM: mine, PATH: join(dir, 'bin') }, playwrightPath: pw })).toEqual({
      found: true,
      path: mine,
      source: 'VAK_CHROMIUM',
    });
  });

  it('reports a VAK_CHROMIUM that is not there instead of quietly using another browser', () => {
    const dir = tempDir();
    executable(join(dir, 'bin', 'chromium'));
    const r = findChromium({
      env: { VAK_CHROMIUM: join(dir, 'nope'), PATH: join(dir, 'bin') },
      playwrightPath: undefined,
    });
    expect(r.found).toBe(false);
    if (!r.found) {
      expect(r.message).toContain(`VAK_CHROMIUM=${join(dir, 'nope')}`);
      expect(r.message).not.toContain('\n');
    }
  });

  it('uses Playwright’s own browser when its file exists, before PATH', () => {
    const dir = tempDir();
    const pw = executable(join(dir, 'pw', 'chrome'));
    executable(join(dir, 'bin', 'chromium'));
    expect(findChromium({ env: { PATH: join(dir, 'bin') }, playwrightPath: pw })).toMatchObject({
      path: pw,
      source: 'playwright',
    });
  });

  it('skips Playwright’s path when nothing is installed there, and searches PATH', () => {
    const dir = tempDir();
    const sys = executable(join(dir, 'bin', 'chromium'));
    expect(findChromium({ env: { PATH: join(dir, 'bin') }, playwrightPath: join(dir, 'pw', 'chrome') })).toMatchObject({
      path: sys,
      source: 'PATH',
    });
  });

  it('on PATH: chromium before chromium-browser before google-chrome, in whichever directory it is', () => {
    const dir = tempDir();
    const chrome = executable(join(dir, 'a', 'google-chrome'));
    executable(join(dir, 'a', 'google-chrome-stable'));
    const chromiumBrowser = executable(join(dir, 'b', 'chromium-browser'));
    const PATH = [join(dir, 'a'), join(dir, 'b')].join(delimiter);
    expect(findChromium({ env: { PATH }, playwrightPath: undefined })).toMatchObject({ path: chromiumBrowser });
    const onlyChrome = findChromium({ env: { PATH: join(dir, 'a') }, playwrightPath: undefined });
    expect(onlyChrome).toMatchObject({ path: chrome });
    const onlyStable = join(dir, 'c', 'google-chrome-stable');
    executable(onlyStable);
    expect(findChromium({ env: { PATH: join(dir, 'c') }, playwrightPath: undefined })).toMatchObject({
      path: onlyStable,
    });
  });

  it('ignores a non-executable file and a directory named chromium', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'a', 'chromium'), { recursive: true });
    mkdirSync(join(dir, 'b'), { recursive: true });
    writeFileSync(join(dir, 'b', 'chromium'), 'not a program');
    chmodSync(join(dir, 'b', 'chromium'), 0o644);
    const PATH = [join(dir, 'a'), join(dir, 'b')].join(delimiter);
    expect(findChromium({ env: { PATH }, playwrightPath: undefined })).toEqual({
      found: false,
      message: NO_CHROMIUM_MESSAGE,
    });
  });

  it('with no browser anywhere, one line that says how to get one', () => {
    const dir = tempDir();
    const r = findChromium({ env: { PATH: dir }, playwrightPath: join(dir, 'missing') });
    expect(r).toEqual({ found: false, message: NO_CHROMIUM_MESSAGE });
    expect(NO_CHROMIUM_MESSAGE).toContain('npx playwright install chromium');
    expect(NO_CHROMIUM_MESSAGE).toContain('apt-get install chromium');
    expect(NO_CHROMIUM_MESSAGE).not.toContain('\n');
  });
});
