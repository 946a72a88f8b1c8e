#!/usr/bin/env node
// The package's command. It runs the TypeScript sources through tsx (a runtime
// dependency), so `npx vak-explorer …` works right after `npm install`, with no build.
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';

register();
await import(fileURLToPath(new URL('../src/cli/main.ts', import.meta.url)));
