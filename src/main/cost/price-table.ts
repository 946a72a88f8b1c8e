/**
 * The price table: USD per million tokens per model, from the user's
 * `prices.json` in the app's data folder when it is there and valid, else from the
 * bundled default (`resources/prices.json`). A model with no row has no price: its
 * tokens are shown, never a guessed cost.
 */
import { join } from 'node:path';
import type { ModelPrice, PriceTable } from '../../shared/api-features';
import { parseJsonText } from '../../shared/json-problem';
import { readSmallRegularFile } from '../core/safe-open';
import bundled from '../../../resources/prices.json';

export const PRICES_FILE = 'prices.json';
/** A price file larger than this is refused unread (it is a table of a few models). */
const MAX_FILE_BYTES = 1 << 20;
const MAX_PRICE = 1_000_000;
const MAX_MODEL_NAME = 256;
const PRICE_FIELDS = ['input', 'output', 'cache_read', 'cache_write'] as const;

/**
 * The models of a parsed price file, or what is wrong with it. Checked by hand rather than by
 * a schema library, for two reasons: a model may be named anything, "__proto__" included (a
 * record schema builds a plain object, where that name sets the prototype and the model is
 * gone); and the problems name places by position, never by a name or value from the file,
 * which may be any file a link leads to.
 */
function readPriceFile(json: unknown): { models: Map<string, ModelPrice> } | { problems: string[] } {
  if (!isPlainObject(json)) return { problems: ['the file is not a JSON object'] };
  const problems: string[] = [];
  const unknown = Object.keys(json).filter((k) => k !== 'note' && k !== 'models').length;
  if (unknown > 0) problems.push(`${unknown} unknown top-level field(s); only "note" and "models" are allowed`);
  if ('note' in json && typeof json['note'] !== 'string') problems.push('"note" is not a string');
  const models = new Map<string, ModelPrice>();
  const rows = json['models'];
  if (!isPlainObject(rows)) {
    problems.push('"models" is missing or not an object');
    return { problems };
  }
  // JSON.parse makes "__proto__" an own property: Object.entries lists it like any other name.
  Object.entries(rows).forEach(([name, row], k) => {
    const where = `model ${k + 1} in "models"`;
    if (name.length === 0 || name.length > MAX_MODEL_NAME) {
      problems.push(`${where}: its name must have 1 to ${MAX_MODEL_NAME} characters`);
    }
    if (!isPlainObject(row)) {
      problems.push(`${where}: not an object with ${PRICE_FIELDS.join(', ')}`);
      return;
    }
    const extra = Object.keys(row).filter((f) => !(PRICE_FIELDS as readonly string[]).includes(f)).length;
    if (extra > 0) problems.push(`${where}: ${extra} unknown field(s); only ${PRICE_FIELDS.join(', ')} are allowed`);
    // Field names are ours; the null prototype keeps the lint rule's promise all the same.
    const price = Object.create(null) as ModelPrice;
    for (const f of PRICE_FIELDS) {
      const v = row[f];
      if (typeof v !== 'number' || !(v >= 0 && v <= MAX_PRICE)) {
        problems.push(`${where}: "${f}" must be a number from 0 to ${MAX_PRICE} (USD per million tokens)`);
      } else price[f] = v;
    }
    models.set(name, price);
  });
  return problems.length > 0 ? { problems } : { models };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A table's models as the API carries them: an object without a prototype, so any name is just a name. */
function modelsObject(models: Map<string, ModelPrice>): Record<string, ModelPrice> {
  const out = Object.create(null) as Record<string, ModelPrice>;
  for (const [name, p] of models) out[name] = p;
  return out;
}

/** The bundled table, checked like a user's (a broken bundle fails the tests, not the user). */
export function bundledPrices(): Record<string, ModelPrice> {
  const r = readPriceFile(bundled);
  if ('problems' in r) throw new Error(`the bundled prices.json is invalid: ${r.problems.join('; ')}`);
  return modelsObject(r.models);
}

/** Where the user's table lives, or null without a user data folder. */
export function userPricesPath(userDataDir: string | null): string | null {
  return userDataDir === null ? null : join(userDataDir, PRICES_FILE);
}

/**
 * Reads the user's table; invalid or absent, the bundled one is used and `errors` says why:
 * each names the file and the problem, never a byte of its content (the path may be a link
 * to any file).
 */
export function loadPriceTable(userDataDir: string | null): PriceTable {
  const path = userPricesPath(userDataDir);
  const fallback = (errors: string[]): PriceTable => ({ path, source: 'bundled', errors, models: bundledPrices() });
  if (path === null) return fallback([]);
  let text: string;
  try {
    const read = readSmallRegularFile(path, MAX_FILE_BYTES);
    if (read === 'not regular') return fallback([`${path}: not a regular file; not read`]);
    if (read === 'too large') return fallback([`${path}: larger than ${MAX_FILE_BYTES} bytes; not read`]);
    text = read.toString('utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return fallback([]);
    if (code === 'ELOOP') return fallback([`${path}: a symbolic link loop (ELOOP); not read`]);
    return fallback([`${path}: cannot be read (${code ?? 'an I/O error'})`]);
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) return fallback([`${path}: ${parsed.problem}`]);
  const r = readPriceFile(parsed.value);
  if ('problems' in r) return fallback(r.problems.map((p) => `${path}: ${p}`));
  return { path, source: 'user', errors: [], models: modelsObject(r.models) };
}

/** Looks a model up without ever reading inherited properties. */
export function priceOf(table: PriceTable, model: string): ModelPrice | null {
  return Object.prototype.hasOwnProperty.call(table.models, model) ? table.models[model] : null;
}
