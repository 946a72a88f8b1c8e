/**
 * Maps a request path to a file of the built renderer (out/renderer), for both
 * the app:// protocol handler and the loopback server. Anything that could
 * leave the directory is refused outright rather than normalised away.
 */
import { realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ownTable } from '../../shared/own-key';

const CONTENT_TYPES: Record<string, string> = ownTable({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
});

/** The Content-Type for a file name (octet-stream when unknown, so nothing is sniffed as script). */
export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The build names its scripts, styles and images for their content (`assets/markdown-text-Dkjf5PXS.js`):
 * a name never holds other bytes, so the browser may keep them for good and a later use takes them
 * from its cache. The page itself is never kept: it names the assets of the build being served.
 */
const CONTENT_NAMED = /^\/assets\/[\w.-]+-[\w-]{8}\.[a-z0-9]+$/;

/**
 * The page's entry script (electron.vite.config.ts names it `entry-`: everything the first screen
 * runs) is not kept either. Kept, Chromium makes its code cache on the page's second load, on the
 * main thread between the script's run and the first render (tens of ms for this bundle): the
 * first reload with a session open drew its rows that much later. Fetched each load over the
 * loopback, it is compiled while it streams, off the main thread. Measured in docs/performance.md.
 */
const ENTRY_SCRIPT = /^\/assets\/entry-[\w-]{8}\.js$/;

/** The Cache-Control of a file served from the built renderer. */
export function cacheControlFor(rawPathname: string, isIndex: boolean): string {
  if (isIndex || ENTRY_SCRIPT.test(rawPathname)) return 'no-store';
  return CONTENT_NAMED.test(rawPathname) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

export type StaticLookup =
  | { kind: 'file'; path: string; contentType: string; isIndex: boolean }
  /** The path tries to leave the directory, or is not a path at all. */
  | { kind: 'refused'; reason: string }
  | { kind: 'missing' };

/**
 * Finds the file for a raw (still percent-encoded) URL path under `root`.
 * A path without a file extension that names no file falls back to index.html
 * (the renderer is a single-page app).
 */
export async function lookupStatic(root: string, rawPathname: string): Promise<StaticLookup> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPathname);
  } catch {
    return { kind: 'refused', reason: 'malformed percent-encoding' };
  }
  if (!decoded.startsWith('/')) return { kind: 'refused', reason: 'not an absolute path' };
  if (decoded.includes('\0')) return { kind: 'refused', reason: 'NUL in path' };
  // Both separators, because a Windows path.resolve treats "\" as one.
  if (decoded.split(/[/\\]/).some((part) => part === '..')) return { kind: 'refused', reason: 'path traversal' };

  const base = resolve(root);
  const wanted = decoded.endsWith('/') ? decoded + 'index.html' : decoded;
  const full = resolve(base, '.' + wanted);
  if (!isInside(base, full)) return { kind: 'refused', reason: 'path traversal' };

  const found = await regularFile(base, full);
  if (found === 'escapes') return { kind: 'refused', reason: 'symlink out of the renderer directory' };
  if (found) return file(found, full === join(base, 'index.html'));
  if (extname(wanted) !== '') return { kind: 'missing' };
  const index = await regularFile(base, join(base, 'index.html'));
  return typeof index === 'string' ? file(index, true) : { kind: 'missing' };
}

function file(path: string, isIndex: boolean): StaticLookup {
  return { kind: 'file', path, contentType: contentTypeFor(path), isIndex };
}

function isInside(base: string, full: string): boolean {
  const rel = relative(base, full);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/** The real path of a regular file inside base, null when there is none, 'escapes' for a symlink out. */
async function regularFile(base: string, full: string): Promise<string | null | 'escapes'> {
  try {
    const [realBase, real] = await Promise.all([realpath(base), realpath(full)]);
    if (!isInside(realBase, real)) return 'escapes';
    return (await stat(real)).isFile() ? real : null;
  } catch {
    return null;
  }
}
