import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../../test-support/temp-dir';
import { BUILT_THREADS_ENV, resolveWorkerEntry, SCAN_WORKER } from './thread-entry';

const tempDir = useTempDir('vak-worker-entry-');

// The unit tests' global setup names the built entries (dist/cli); these tests choose their own.
const builtForTests = process.env[BUILT_THREADS_ENV];
beforeEach(() => {
  delete process.env[BUILT_THREADS_ENV];
});
afterEach(() => {
  if (builtForTests === undefined) delete process.env[BUILT_THREADS_ENV];
  else process.env[BUILT_THREADS_ENV] = builtForTests;
});

describe('resolveWorkerEntry', () => {
  it('takes a given path (Electron: the one electron-vite built)', () => {
    expect(resolveWorkerEntry('/opt/app/out/main/chunks/backend-worker-1.js').file.href).toBe(
      'file:///opt/app/out/main/chunks/backend-worker-1.js',
    );
  });

  it('finds a built backend-worker.js beside a bundle, or one folder up from a chunk', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'backend-worker.js'), '');
    mkdirSync(join(dir, 'chunks'));
    const beside = pathToFileURL(join(dir, 'cli.js')).href;
    const inChunk = pathToFileURL(join(dir, 'chunks', 'worker-backend-abc.js')).href;
    expect(resolveWorkerEntry(undefined, beside)).toEqual({ file: pathToFileURL(join(dir, 'backend-worker.js')) });
    expect(resolveWorkerEntry(undefined, inChunk)).toEqual({ file: pathToFileURL(join(dir, 'backend-worker.js')) });
  });

  it("finds the secret scan thread's entry one folder up from the backend worker's chunk (the Electron build)", () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'secret-scan-worker.js'), '');
    mkdirSync(join(dir, 'chunks'));
    const inChunk = pathToFileURL(join(dir, 'chunks', 'backend-worker-1.js')).href;
    expect(resolveWorkerEntry(undefined, inChunk, SCAN_WORKER)).toEqual({
      file: pathToFileURL(join(dir, 'secret-scan-worker.js')),
    });
    const e = resolveWorkerEntry(undefined, undefined, SCAN_WORKER);
    expect(e.file.pathname.endsWith('/src/main/threads/dev-worker-bootstrap.mjs')).toBe(true);
    expect(e.source?.endsWith('/src/main/secrets/secret-scan-worker.ts')).toBe(true);
  });

  it('from the sources, runs the TypeScript entry through the dev bootstrap', () => {
    const e = resolveWorkerEntry();
    expect(e.file.pathname.endsWith('/src/main/threads/dev-worker-bootstrap.mjs')).toBe(true);
    expect(e.source?.endsWith('/src/main/worker/backend-worker.ts')).toBe(true);
  });

  it('from the sources, takes the built entries of the folder the environment names, when they are there', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'backend-worker.js'), '');
    process.env[BUILT_THREADS_ENV] = dir;
    expect(resolveWorkerEntry()).toEqual({ file: pathToFileURL(join(dir, 'backend-worker.js')) });
    // A folder without the entry asked for: the dev bootstrap, as without the variable.
    const scan = resolveWorkerEntry(undefined, undefined, SCAN_WORKER);
    expect(scan.file.pathname.endsWith('/src/main/threads/dev-worker-bootstrap.mjs')).toBe(true);
  });

  it('says clearly when no entry is there', () => {
    const here = pathToFileURL(join(tempDir(), 'cli.js')).href;
    expect(() => resolveWorkerEntry(undefined, here)).toThrow(/backend worker's entry is missing/);
  });
});
