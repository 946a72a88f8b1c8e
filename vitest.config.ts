import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts', 'eslint-rules/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    pool: 'forks',
    // Vitest's default leaves a core free (one worker on two cores); most of these tests wait on
    // child processes, sockets and files, so a worker per core keeps both busy.
    maxWorkers: Math.max(2, availableParallelism()),
    // Tests that spawn bin/vak-explorer.mjs run the built CLI: (re)build it when stale.
    globalSetup: ['src/test-support/build-cli-setup.ts'],
    // waitFor/findBy bounds that hold on a loaded machine.
    setupFiles: ['src/test-support/testing-library-timeouts.ts'],
  },
});
