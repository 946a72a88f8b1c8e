// The WebAssembly the core loads (src/main/core/json-skim-wasm.ts) is the one its source makes:
// after an edit of json-skim.wat, `node scripts/build-json-skim.mjs` must have been run.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { jsonSkimModuleText, OUT } from './build-json-skim.mjs';

it('json-skim-wasm.ts is what json-skim.wat makes (node scripts/build-json-skim.mjs)', async () => {
  expect(readFileSync(OUT, 'utf8')).toBe(await jsonSkimModuleText());
});
