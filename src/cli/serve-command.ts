/**
 * `vak-explorer serve [--home DIR] [--port N] [--no-open]`: the explorer in a
 * normal browser, served from loopback, until SIGINT or SIGTERM.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiBackend } from '../main/api/api-backend';
import { defaultUserDataDir, resolveHome } from '../main/library/resolve-home';
import { openInBrowser } from '../main/server/browser-opener';
import { createLoopbackServer } from '../main/server/loopback-server';
import type { HomeInfo } from '../shared/api';
import { numberOption, parseArgs, UsageError } from './args';
import type { CliIo } from './cli-io';
import { BUNDLED_DEMO_DIR, RENDERER_DIR } from './serve-paths';

/** Everything serve mode takes from the outside world, replaceable in tests. */
export interface ServeDeps {
  env: NodeJS.ProcessEnv;
  staticDir: string;
  bundledDemoDir: string;
  userDataDir: string;
  resolveHome(opts: { env: NodeJS.ProcessEnv; userDataDir: string; bundledDemoDir: string }): Promise<HomeInfo>;
  createBackend(home: HomeInfo): Promise<ApiBackend>;
  openBrowser(url: string): void;
  /** Resolves with the signal's name when the user stops the server. */
  untilStopped(): Promise<string>;
}

/** Runs serve mode; resolves with the exit code once stopped. */
export async function serveCommand(argv: string[], io: CliIo, overrides: Partial<ServeDeps> = {}): Promise<number> {
  const args = parseArgs('serve', argv, { home: 'string', port: 'string', 'no-open': 'boolean' });
  if (args.positionals.length > 0)
    throw new UsageError(`serve takes no FILE (got ${JSON.stringify(args.positionals[0])})`);
  const port = numberOption(args, 'port', 0, 0);
  if (port > 65535) throw new UsageError(`--port must be at most 65535, not ${port}`);

  const deps = { ...defaultDeps(), ...overrides };
  if (!existsSync(join(deps.staticDir, 'index.html'))) {
    io.err(`vak-explorer: the built renderer is missing (${deps.staticDir}): run \`npm run build\` first\n`);
    return 2;
  }
  const home = args.options.get('home');
  // --home wins over $VAK_HOME; resolveHome applies ~/.vak and the demo fallback.
  const env = home === undefined ? deps.env : { ...deps.env, VAK_HOME: home };
  const homeInfo = await deps.resolveHome({ env, userDataDir: deps.userDataDir, bundledDemoDir: deps.bundledDemoDir });
  const backend = await deps.createBackend(homeInfo);

  let server;
  try {
    server = await createLoopbackServer({ backend, port, staticDir: deps.staticDir });
  } catch (e) {
    await backend.close();
    throw new Error(`cannot listen on 127.0.0.1:${port}: ${(e as Error).message}`, { cause: e });
  }
  io.out(`vak-explorer serving ${homeInfo.label} at ${server.url}\n`);
  io.err('Only this URL (with its token) opens the explorer. Press Ctrl+C to stop.\n');
  if (!args.flags.has('no-open')) deps.openBrowser(server.oneTimeUrl());

  const signal = await deps.untilStopped();
  io.err(`vak-explorer: ${signal}, stopping\n`);
  await server.close();
  await backend.close();
  return 0;
}

function defaultDeps(): ServeDeps {
  return {
    env: process.env,
    staticDir: RENDERER_DIR,
    bundledDemoDir: BUNDLED_DEMO_DIR,
    userDataDir: defaultUserDataDir(process.env),
    resolveHome,
    // The user data folder also holds the user's prices.json (issue 11 cost).
    // The ledger core on a worker thread: this thread only routes the sockets (issue 9).
    createBackend: async (home) =>
      (await import('../main/worker/worker-backend')).WorkerBackend.create({
        ...home,
        userDataDir: defaultUserDataDir(process.env),
      }),
    openBrowser: openInBrowser,
    untilStopped,
  };
}

function untilStopped(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
