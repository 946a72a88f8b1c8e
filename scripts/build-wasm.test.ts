// The WebAssembly the core loads (src/main/core/*-wasm.ts) is the one its source makes: after an edit
// of a .wat file, `node scripts/build-wasm.mjs` must have been run.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { expect, it } from 'vitest';
import { MODULES, wasmModuleText } from './build-wasm.mjs';

for (const m of MODULES) {
  it(`${basename(m.out)} is what ${basename(m.wat)} makes (node scripts/build-wasm.mjs)`, async () => {
    expect(readFileSync(m.out, 'utf8')).toBe(await wasmModuleText(m));
  });
}
