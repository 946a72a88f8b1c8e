/**
 * The price table (issue 11 §3): USD per million tokens per model, from the user's
 * `prices.json` in the app's data folder when it is there and valid, else from the
 * bundled default (`resources/prices.json`). A model with no row has no price: its
 * tokens are shown, never a guessed cost.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ModelPrice, PriceTable } from '../../shared/api-features';
import bundled from '../../../resources/prices.json';

export const PRICES_FILE = 'prices.json';
/** A price file larger than this is refused unread (it is a table of a few models). */
const MAX_FILE_BYTES = 1 << 20;

const price = z.number().min(0).max(1_000_000);
const modelPrice = z.object({ input: price, output: price, cache_read: price, cache_write: price }).strict();
const priceFile = z
  .object({
    note: z.string().optional(),
    models: z.record(z.string().min(1).max(256), modelPrice),
  })
  .strict();

/** The bundled table, checked like a user's (a broken bundle fails the tests, not the user). */
export function bundledPrices(): Record<string, ModelPrice> {
  return priceFile.parse(bundled).models;
}

/** Where the user's table lives, or null without a user data folder. */
export function userPricesPath(userDataDir: string | null): string | null {
  return userDataDir === null ? null : join(userDataDir, PRICES_FILE);
}

/** Reads the user's table; invalid or absent, the bundled one is used and `errors` says why. */
export function loadPriceTable(userDataDir: string | null): PriceTable {
  const path = userPricesPath(userDataDir);
  const fallback = (errors: string[]): PriceTable => ({ path, source: 'bundled', errors, models: bundledPrices() });
  if (path === null) return fallback([]);
  let text: string;
  try {
    const read = readSmallRegularFile(path);
    if (read === 'not regular') return fallback([`${path}: not a regular file; not read`]);
    if (read === 'too large') return fallback([`${path}: larger than ${MAX_FILE_BYTES} bytes; not read`]);
    text = read.toString('utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return fallback([]);
    return fallback([`${path}: cannot be read (${code ?? (e as Error).message})`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return fallback([`${path}: not valid JSON (${(e as Error).message})`]);
  }
  const r = priceFile.safeParse(json);
  if (!r.success) {
    return fallback(r.error.issues.map((i) => `${path}: ${i.path.join('.') || '(file)'}: ${i.message}`));
  }
  // A plain object without a prototype: a model named "__proto__" or "toString" is just a name.
  const models: Record<string, ModelPrice> = Object.create(null) as Record<string, ModelPrice>;
  for (const [name, p] of Object.entries(r.data.models)) models[name] = p;
  return { path, source: 'user', errors: [], models };
}

/**
 * A small regular file's bytes. O_NONBLOCK: a FIFO put at this path must not hang the
 * backend (it is refused after fstat); a symbolic link to a regular file is followed.
 */
function readSmallRegularFile(path: string): Buffer | 'not regular' | 'too large' {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return 'not regular';
    if (st.size > MAX_FILE_BYTES) return 'too large';
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** Looks a model up without ever reading inherited properties. */
export function priceOf(table: PriceTable, model: string): ModelPrice | null {
  return Object.prototype.hasOwnProperty.call(table.models, model) ? table.models[model] : null;
}
