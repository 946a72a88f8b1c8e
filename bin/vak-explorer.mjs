#!/usr/bin/env node
// The package's command: the CLI built from src/cli by scripts/build-cli.mjs (plain JavaScript,
// nothing transpiled at run time). `npm install` in a clone and a git-dependency install build it
// (the `prepare` script: `npm run build`); the published package and `npm pack` tarballs ship it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = fileURLToPath(new URL('../dist/cli/vak-explorer.mjs', import.meta.url));
if (!existsSync(built)) {
  console.error(
    `vak-explorer: the CLI is not built (${built} is missing): run \`npm run build:cli\` in the package folder`,
  );
  process.exit(2);
}
await import(new URL('../dist/cli/vak-explorer.mjs', import.meta.url).href);
