import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

const INCLUDE = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts', 'eslint-rules/**/*.test.ts'];

/**
 * Test files that get a fresh module graph of their own: those that replace modules or globals
 * (vi.mock, vi.stubGlobal, spies, fake timers), which would leak into the next file sharing the graph.
 */
const ISOLATED = [
  'src/cli/serve-command.test.ts',
  'src/main/api/read-in-steps.test.ts',
  'src/main/core/reading-check.test.ts',
  'src/main/electron/*.test.ts',
  'src/main/library/index-store.test.ts',
  'src/main/secrets/scan-thread.test.ts',
  'src/reliability/rewrites.test.ts',
  'src/renderer/api/ws-client.test.ts',
  'src/renderer/leaf/projected-margin.test.tsx',
];

export default defineConfig({
  test: {
    environment: 'node',
    // A bound for a test that hangs, not a speed goal: on a loaded 2-core machine a test that
    // starts a worker thread on a generated session may take tens of seconds and still be right.
    testTimeout: 60_000,
    // Threads, not processes: the suite needs no process of its own per file (nothing changes the
    // working directory or exits). On a quiet machine both take the same time; under load a thread,
    // cheaper to start than a process, left more of the cores to the tests.
    pool: 'threads',
    // Vitest's default leaves a core free (one worker on two cores); most of these tests wait on
    // child processes, sockets and files, so a worker per core keeps both busy.
    maxWorkers: Math.max(2, availableParallelism()),
    // Tests that spawn bin/vak-explorer.mjs run the built CLI: (re)build it when stale.
    globalSetup: ['src/test-support/build-cli-setup.ts'],
    // waitFor/findBy bounds that hold on a loaded machine; what a renderer test drew is ended after it.
    setupFiles: ['src/test-support/testing-library-timeouts.ts', 'src/renderer/test-support/render-cleanup.ts'],
    projects: [
      {
        extends: true,
        // Files share one module graph per worker thread: each file importing, compiling and
        // warming up the same modules again took half of the suite's time. What a file leaves
        // behind is ended by its own hooks and the setup files, which run for every file.
        test: { name: 'shared', include: INCLUDE, exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
    ],
  },
});
