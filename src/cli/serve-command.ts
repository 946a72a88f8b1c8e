/**
 * `vak-explorer serve [--home DIR] [--file FILE]… [--port N] [--no-open]`: the explorer in a
 * normal browser, served from loopback, until SIGINT or SIGTERM. Each `--file` is a ledger opened
 * by path beside the home's sessions ("Opened files"); a browser page cannot name more
 * (docs/open-files.md).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ApiBackend } from '../main/api/api-backend';
import {
  defaultUserDataDir,
  HomeError,
  namedHomeProblem,
  resolveHome,
  type ResolveHomeOptions,
} from '../main/library/resolve-home';
import { ledgerFileProblem } from '../main/library/opened-files';
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
  resolveHome(opts: ResolveHomeOptions): Promise<HomeInfo>;
  /** `files`: the ledgers given with `--file`, checked already; `secretSurvey`: unless `--no-secret-survey`. */
  createBackend(home: HomeInfo, files: string[], secretSurvey: boolean): Promise<ApiBackend>;
  openBrowser(url: string): void;
  /** Resolves with the signal's name when the user stops the server. */
  untilStopped(): Promise<string>;
}

/** Runs serve mode; resolves with the exit code once stopped. */
export async function serveCommand(argv: string[], io: CliIo, overrides: Partial<ServeDeps> = {}): Promise<number> {
  const args = parseArgs('serve', argv, {
    home: 'string',
    file: 'strings',
    port: 'string',
    'no-open': 'boolean',
    'no-secret-survey': 'boolean',
  });
  if (args.positionals.length > 0)
    throw new UsageError(`serve takes no FILE (got ${JSON.stringify(args.positionals[0])})`);
  const port = numberOption(args, 'port', 0, 0, 65535);

  const deps = { ...defaultDeps(), ...overrides };
  // --home wins over $VAK_HOME and must name a folder (refused before anything else is done);
  // without it, resolveHome applies $VAK_HOME, ~/.vak and the demo fallback.
  const named = args.options.get('home');
  const problem = named === undefined ? null : namedHomeProblem(named);
  if (named !== undefined && problem !== null) return refuseHome(io, new HomeError(named, problem));
  // Every --file is checked first: one that is not a ledger (or a FIFO, a folder, too big) stops
  // serve with its reason before anything is served or written.
  const files = (args.lists.get('file') ?? []).map((f) => resolve(f));
  for (const f of files) {
    const why = ledgerFileProblem(f);
    if (why !== null) {
      io.err(`vak-explorer: serve: --file ${why}; nothing is served\n`);
      return 2;
    }
  }
  if (!existsSync(join(deps.staticDir, 'index.html'))) {
    io.err(`vak-explorer: the built renderer is missing (${deps.staticDir}): run \`npm run build\` first\n`);
    return 2;
  }
  let homeInfo: HomeInfo;
  try {
    homeInfo = await deps.resolveHome({
      env: deps.env,
      userDataDir: deps.userDataDir,
      bundledDemoDir: deps.bundledDemoDir,
      home: named,
    });
  } catch (e) {
    if (e instanceof HomeError) return refuseHome(io, e); // gone between the check and now
    throw e;
  }
  const backend = await deps.createBackend(homeInfo, files, !args.flags.has('no-secret-survey'));

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

function refuseHome(io: CliIo, e: HomeError): number {
  io.err(`vak-explorer: serve: --home ${e.message}; nothing is served\n`);
  return 2;
}

function defaultDeps(): ServeDeps {
  return {
    env: process.env,
    staticDir: RENDERER_DIR,
    bundledDemoDir: BUNDLED_DEMO_DIR,
    userDataDir: defaultUserDataDir(process.env),
    resolveHome,
    // The user data folder also holds the user's prices.json.
    // The ledger core on a worker thread: this thread only routes the sockets.
    createBackend: async (home, files, secretSurvey) =>
      (await import('../main/worker/worker-backend')).WorkerBackend.create({
        ...home,
        userDataDir: defaultUserDataDir(process.env),
        openFiles: files,
        secretSurvey,
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
