/**
 * Vitest global setup: tests that run the real `vak-explorer` process (bin/vak-explorer.mjs)
 * run the built CLI, so build it first when a source changed since the last build.
 */
import { buildCli } from '../../scripts/build-cli.mjs';

export default async function setup(): Promise<void> {
  await buildCli({ quiet: true });
}
