/**
 * Serve mode for the API benches when the renderer is not built (`out/` is shared and built
 * only on purpose): `vak-explorer serve`'s own code, in its own process, with a placeholder
 * page for the static files — the API path is the real one.
 *   node bin/run-ts.mjs bench/serve-child.ts --home HOME --port 0 --no-open
 * VAK_BENCH_CLI=path/to/vak-explorer.mjs runs that built CLI's `serve` instead (another build of
 * the same benches, e.g. before and after a change, measured on the same machine state).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveCommand } from '../src/cli/serve-command';
import { ROOT, startServe, type ServeProcess } from '../src/test-support/serve-process';

const BUILT = join(ROOT, 'out', 'renderer', 'index.html');

export interface ApiServeOptions {
  timeoutMs?: number;
  /** The child's user data folder (`XDG_DATA_HOME`): the kept indexes of one bench run, never the user's. */
  dataDir?: string;
  /** Run `src/cli` through tsx even when the renderer is built (the built CLI may be older than the source). */
  fromSource?: boolean;
}

/** `vak-explorer serve` on `home`: the real CLI when the renderer is built, else this file's child. */
export async function startApiServe(home: string, opts: ApiServeOptions = {}): Promise<ServeProcess> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const env = opts.dataDir === undefined ? process.env : { ...process.env, XDG_DATA_HOME: opts.dataDir };
  const other = process.env['VAK_BENCH_CLI'];
  if (other) return childServe(home, [other, 'serve'], env, timeoutMs);
  if (existsSync(BUILT) && !opts.fromSource) {
    // startServe spawns with this process's environment, synchronously: set it around the call.
    const saved = process.env['XDG_DATA_HOME'];
    if (opts.dataDir !== undefined) process.env['XDG_DATA_HOME'] = opts.dataDir;
    const started = startServe(home, timeoutMs);
    if (saved === undefined) delete process.env['XDG_DATA_HOME'];
    else process.env['XDG_DATA_HOME'] = saved;
    return started;
  }
  return childServe(home, ['bin/run-ts.mjs', 'bench/serve-child.ts'], env, timeoutMs);
}

/** `node ARGS… --home HOME --port 0 --no-open`, resolved once it printed its URL. */
async function childServe(
  home: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...args, '--home', home, '--port', '0', '--no-open'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += String(d)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in ${timeoutMs} ms\n${err}`)), timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      out += String(d);
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}\n${out}\n${err}`));
    });
  });
  return { child, url, origin: new URL(url).origin, stderr: () => err };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const staticDir = mkdtempSync(join(tmpdir(), 'vak-bench-static-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>bench</title><p>API only</p>\n');
  const code = await serveCommand(
    process.argv.slice(2),
    { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) },
    existsSync(BUILT) ? {} : { staticDir },
  );
  process.exit(code);
}
