import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './src/test-support/serve-process';

/**
 * UI e2e runs in plain Chromium against the real serve mode (each spec starts its own
 * `vak-explorer serve` on a temp copy of the demo home); the Electron smoke test launches
 * the built app itself. `npx playwright install` is not available here: the system
 * Chromium is used.
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: ['ui-*.spec.ts', 'electron-smoke.spec.ts'],
  outputDir: 'test-results/playwright',
  workers: 1,
  fullyParallel: false,
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
          executablePath: CHROMIUM_PATH,
          args: CHROMIUM_ARGS,
        },
      },
    },
    { name: 'electron', testMatch: 'electron-smoke.spec.ts' },
  ],
});
