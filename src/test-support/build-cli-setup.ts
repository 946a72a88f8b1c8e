/**
 * Vitest global setup: tests that run the real `vak-explorer` process (bin/vak-explorer.mjs)
 * run the built CLI, so build it first when a source changed since the last build.
 *
 * The worker threads the tests start (the backend worker, the secret scan's thread) run from that
 * same build too: through the dev bootstrap each start transpiled the whole core again with tsx,
 * seconds of CPU per worker. The variable reaches the test threads and the processes they spawn.
 */
import { buildCli, CLI_OUT_DIR } from '../../scripts/build-cli.mjs';
import { BUILT_THREADS_ENV } from '../main/threads/thread-entry';

/** What this setup uses of Vitest's TestProject (vitest/node is outside this folder's layer). */
interface Project {
  onTestsRerun(cb: () => Promise<void>): void;
}

export default async function setup(project: Project): Promise<void> {
  await buildCli({ quiet: true });
  process.env[BUILT_THREADS_ENV] = CLI_OUT_DIR;
  // Watch mode: a source edited since the start is built again before the tests rerun.
  project.onTestsRerun(async () => {
    await buildCli({ quiet: true });
  });
}
