import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControlFor, contentTypeFor, lookupStatic } from './static-files';

let dir: string;
let root: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vak-static-'));
  root = join(dir, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), 'index');
  writeFileSync(join(root, 'assets', 'a.js'), 'js');
  writeFileSync(join(dir, 'secret.txt'), 'secret');
  symlinkSync(join(dir, 'secret.txt'), join(root, 'leak.txt'));
  symlinkSync(dir, join(root, 'up'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lookupStatic', () => {
  it('finds files and index.html', async () => {
    expect(await lookupStatic(root, '/assets/a.js')).toMatchObject({ kind: 'file', isIndex: false });
    expect(await lookupStatic(root, '/')).toMatchObject({ kind: 'file', isIndex: true });
    expect(await lookupStatic(root, '/index.html')).toMatchObject({ kind: 'file', isIndex: true });
  });

  it('falls back to index.html only for extension-less paths', async () => {
    expect(await lookupStatic(root, '/some/route')).toMatchObject({ kind: 'file', isIndex: true });
    expect(await lookupStatic(root, '/assets/missing.js')).toEqual({ kind: 'missing' });
    expect(await lookupStatic(root, '/assets')).toMatchObject({ kind: 'file', isIndex: true });
  });

  it.each([
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/a/..%2F..%2Fsecret.txt',
    '/..\\secret.txt',
    '/x%00',
    '/%zz',
    'rel',
  ])('refuses %s', async (p) => {
    expect((await lookupStatic(root, p)).kind).toBe('refused');
  });

  it('refuses symlinks that lead out of the directory', async () => {
    expect(await lookupStatic(root, '/leak.txt')).toMatchObject({ kind: 'refused' });
    expect(await lookupStatic(root, '/up/secret.txt')).toMatchObject({ kind: 'refused' });
  });

  it('names content types, octet-stream when unknown', () => {
    expect(contentTypeFor('x.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('x.woff2')).toBe('font/woff2');
    expect(contentTypeFor('x.exe')).toBe('application/octet-stream');
  });

  it('lets the browser keep content-named assets for good, never the page or its entry script', () => {
    expect(cacheControlFor('/assets/entry-B5PfkwES.js', false)).toBe('no-store');
    expect(cacheControlFor('/assets/entry-B5PfkwES.css', false)).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/assets/index-B5PfkwES.js', false)).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/assets/index-DqfS6r5v.css', false)).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/assets/heavy.worker-DLYwYbDR.js', false)).toBe('public, max-age=31536000, immutable');
    // A chunk loaded on demand (the markdown renderer) is named for its content too.
    expect(cacheControlFor('/assets/markdown-text-Dkjf5PXS.js', false)).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/assets/a.js', false)).toBe('no-cache');
    expect(cacheControlFor('/leak.txt', false)).toBe('no-cache');
    expect(cacheControlFor('/assets/index-B5PfkwES.js', true)).toBe('no-store');
    expect(cacheControlFor('/', true)).toBe('no-store');
  });
});
