import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts', 'eslint-rules/**/*.test.ts'],
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
    // waitFor/findBy bounds that hold on a loaded machine.
    setupFiles: ['src/test-support/testing-library-timeouts.ts'],
  },
});
