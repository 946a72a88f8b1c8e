import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, PLAYWRIGHT_DISABLED_FEATURES } from './serve-process';

/** The features the installed Playwright turns off, read from its own launch code. */
function playwrightDisabledFeatures(): string[] {
  const dir = join(createRequire(import.meta.url).resolve('playwright-core/package.json'), '..');
  const code = readFileSync(join(dir, 'lib', 'coreBundle.js'), 'utf8');
  const list = /\bdisabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(code)?.[1];
  if (list === undefined) throw new Error(`no disabledFeatures list in ${join(dir, 'lib', 'coreBundle.js')}`);
  return [...list.matchAll(/^\s*"(\w+)",?\s*$/gm)].map((m) => m[1]);
}

describe('CHROMIUM_ARGS', () => {
  // Chromium reads only the last --disable-features: ours must keep every one Playwright passes.
  it('turns off every feature the installed Playwright turns off, and the hidden address-bar popups', () => {
    const found = playwrightDisabledFeatures();
    expect(found.length).toBeGreaterThan(5);
    expect([...PLAYWRIGHT_DISABLED_FEATURES].sort()).toEqual([...found].sort());
    const ours = CHROMIUM_ARGS.filter((a) => a.startsWith('--disable-features='));
    expect(ours).toHaveLength(1);
    const features = ours[0].slice('--disable-features='.length).split(',');
    expect(features).toEqual(expect.arrayContaining([...found, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']));
  });
});
