/**
 * Finds a Chromium for the e2e suite and the UI bench the way users have one: `VAK_CHROMIUM`,
 * then Playwright's own downloaded browser, then a system Chromium/Chrome on PATH.
 */
import { chromium } from '@playwright/test';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Executable names tried on PATH, in this order. */
export const SYSTEM_BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'] as const;

/** The one line printed when no browser is found: it says exactly how to get one. */
export const NO_CHROMIUM_MESSAGE =
  'No Chromium found for the e2e tests: run `npx playwright install chromium`, or install your distribution’s ' +
  'package (e.g. `apt-get install chromium`), or set VAK_CHROMIUM=/path/to/chromium.';

export type ChromiumSource = 'VAK_CHROMIUM' | 'playwright' | 'PATH';

export type ChromiumLookup = { found: true; path: string; source: ChromiumSource } | { found: false; message: string };

export interface ChromiumSearchPlaces {
  /** The environment to read `VAK_CHROMIUM` and `PATH` from. */
  env: Readonly<Record<string, string | undefined>>;
  /** Where Playwright's own browser would be (`chromium.executablePath()`), whether or not it is installed. */
  playwrightPath: string | undefined;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Looks for a browser in the documented order; never throws. */
export function findChromium(places: ChromiumSearchPlaces): ChromiumLookup {
  const explicit = places.env.VAK_CHROMIUM;
  if (explicit !== undefined && explicit !== '') {
    // A named browser that is not there is a mistake to report, not a reason to quietly use another one.
    if (isExecutableFile(explicit)) return { found: true, path: explicit, source: 'VAK_CHROMIUM' };
    return {
      found: false,
      message: `VAK_CHROMIUM=${explicit} is not an executable file: point it at a Chromium, or unset it to search. ${NO_CHROMIUM_MESSAGE}`,
    };
  }
  if (places.playwrightPath !== undefined && isExecutableFile(places.playwrightPath)) {
    return { found: true, path: places.playwrightPath, source: 'playwright' };
  }
  const dirs = (places.env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  for (const name of SYSTEM_BROWSER_NAMES) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      if (isExecutableFile(candidate)) return { found: true, path: candidate, source: 'PATH' };
    }
  }
  return { found: false, message: NO_CHROMIUM_MESSAGE };
}

/** Where Playwright's own Chromium would be, or undefined when Playwright cannot say for this platform. */
export function playwrightChromiumPath(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

/** The browser for this process (its environment), found in the documented order. */
export function findChromiumHere(): ChromiumLookup {
  return findChromium({ env: process.env, playwrightPath: playwrightChromiumPath() });
}
