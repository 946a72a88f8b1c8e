/**
 * `vak-explorer serve`'s own code in its own process, for tests that need the real thing
 * (signals, a backend on a real home) while the renderer is not built: the static files are
 * a placeholder page, everything else is what the CLI runs. Exits as the CLI does (exitCode,
 * no forced exit), so anything left hanging keeps it alive and the test sees it.
 *   node bin/run-ts.mjs src/test-support/serve-child.ts HOME
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveCommand } from '../cli/serve-command';

const staticDir = mkdtempSync(join(tmpdir(), 'vak-serve-static-'));
writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>vak explorer</title><p>API only</p>\n');
process.exitCode = await serveCommand(
  ['--home', process.argv[2], '--port', '0', '--no-open'],
  { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) },
  { staticDir },
);
