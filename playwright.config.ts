import { defineConfig } from '@playwright/test';
import { findChromiumHere } from './src/test-support/find-chromium';
import { CHROMIUM_ARGS } from './src/test-support/serve-process';

/**
 * UI e2e runs in plain Chromium against the real serve mode (a `vak-explorer serve` on a temp
 * copy of the demo home: one per test, or one per worker for the tests that only read it, see
 * e2e/ui-fixture.ts); the Electron smoke test launches
 * the built app itself. The browser is found as users have one (src/test-support/find-chromium.ts):
 * VAK_CHROMIUM, then Playwright's own, then a system Chromium/Chrome on PATH.
 */
const browser = findChromiumHere();
if (!browser.found) {
  // One line that says how to get a browser, instead of Playwright's stack per test.
  console.error(browser.message);
  process.exit(1);
}

export default defineConfig({
  testDir: 'e2e',
  testMatch: ['ui-*.spec.ts', 'electron-smoke.spec.ts', 'readme-shots.spec.ts'],
  outputDir: 'test-results/playwright',
  // Each worker's serve processes have their own copies of the home, so two run side by side.
  workers: 2,
  // Tests, not files, are shared out: a test has its own server and home, or shares its worker's
  // read-only one, and a spec of eight tests no longer keeps one worker busy while the other has
  // nothing left.
  fullyParallel: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    viewport: { width: 1500, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
  projects: [
    {
      name: 'ui-chromium',
      testMatch: 'ui-*.spec.ts',
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: browser.path,
          args: CHROMIUM_ARGS,
        },
      },
    },
    { name: 'electron', testMatch: 'electron-smoke.spec.ts' },
    // The README's and the user guide's pictures (`npm run shots`), not part of `npm test`.
    {
      name: 'readme-shots',
      testMatch: 'readme-shots.spec.ts',
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: browser.path,
          args: CHROMIUM_ARGS,
        },
      },
    },
  ],
});
