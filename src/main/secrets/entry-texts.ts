/**
 * The texts of an entry a secret can hide in: every string of the parsed line but the common
 * fields (id, parent_id, ts, prev_hash, kind) and the usage counts, with its path in the entry
 * (`message.content[2].text`), so a finding can be marked where the entry view shows it.
 */
import { isObject, type Json } from '../core/entry-types';

export interface EntryText {
  path: string;
  text: string;
}

const COMMON = new Set(['id', 'parent_id', 'ts', 'prev_hash', 'kind']);
/** Shorter strings hold no secret any rule of the preset knows (the shortest tokens are ~20). */
const MIN_TEXT = 12;

export function entryTexts(entry: Json): EntryText[] {
  const out: EntryText[] = [];
  if (!isObject(entry)) return out;
  for (const [k, v] of Object.entries(entry)) {
    if (COMMON.has(k)) continue;
    walk(v, k, out);
  }
  return out;
}

function walk(v: Json, path: string, out: EntryText[]): void {
  if (typeof v === 'string') {
    if (v.length >= MIN_TEXT) out.push({ path, text: v });
  } else if (Array.isArray(v)) {
    for (let k = 0; k < v.length; k++) walk(v[k], `${path}[${k}]`, out);
  } else if (isObject(v)) {
    for (const [k, w] of Object.entries(v)) walk(w, `${path}.${k}`, out);
  }
}
