/**
 * JSON values of any nesting depth, without recursion. A ledger line may nest
 * arrays 100,000 levels deep: `JSON.parse` takes it, but `JSON.stringify`, V8's
 * structured clone and any recursive walk run out of stack at a few thousand
 * levels. Everything here uses an explicit stack, so depth costs heap, not stack.
 */
import type { Json } from './ledger-types';

type JsonObject = { [key: string]: Json };

const isObj = (v: Json): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Exactly what `JSON.stringify(v, null, indent)` writes, at any depth: the native
 * call when the stack allows it, else the same text built with an explicit stack.
 * Indented text of a value nested more than MAX_INDENT_LEVELS deep is the one exception:
 * its levels past that are written compactly (see stringifyIterative), whatever the stack.
 */
export function stringifyJson(v: Json, indent = 0): string {
  // Native indented text costs depth² characters: a worker's larger stack takes an 18 KB
  // value nested 9,000 deep and writes 162 MB for it.
  if (indent > 0 && deeperThan(v, MAX_INDENT_LEVELS)) return stringifyIterative(v, indent);
  try {
    return indent > 0 ? JSON.stringify(v, null, indent) : JSON.stringify(v);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return stringifyIterative(v, indent);
  }
}

/**
 * Past this depth, pretty-printed text is written compactly (no line breaks, no indent): the
 * text then grows with the value, never with the square of its depth.
 */
export const MAX_INDENT_LEVELS = 128;

/**
 * The start of `v`'s JSON text, at least `maxChars` long when the whole is (a preview:
 * it stops writing once it has that much, so a huge or deep value costs little).
 */
export function jsonPrefix(v: Json, maxChars: number): string {
  return stringifyIterative(v, 0, maxChars);
}

/**
 * The iterative serializer behind `stringifyJson` (exported for tests that compare it to
 * JSON.stringify). With `limit`, it stops once it has written at least that many characters.
 * One frame per open container, in parallel arrays (no object per level): depth costs little.
 * Indented, a container opened MAX_INDENT_LEVELS deep is written compactly, with all it holds:
 * pads and line breaks for every level would cost depth² characters.
 */
export function stringifyIterative(root: Json, indent = 0, limit = Infinity): string {
  let out = '';
  const step = ' '.repeat(indent);
  const maxPad = MAX_INDENT_LEVELS * indent;
  const arrays: (Json[] | null)[] = [];
  const objects: (JsonObject | null)[] = [];
  const keyLists: (string[] | null)[] = [];
  const next: number[] = [];
  /** Per frame: the pad of its closing line, or null when the frame is written compactly. */
  const pads: (string | null)[] = [];
  /** Writes a primitive, or opens a container (pushing its frame); `pad`: its line's, null inside a compact one. */
  const open = (v: Json, pad: string | null): void => {
    const framePad = indent === 0 || pad === null || pad.length >= maxPad ? null : pad;
    if (Array.isArray(v)) {
      if (v.length === 0) out += '[]';
      else {
        out += '[';
        arrays.push(v);
        objects.push(null);
        keyLists.push(null);
        next.push(0);
        pads.push(framePad);
      }
    } else if (isObj(v)) {
      const keys = Object.keys(v);
      if (keys.length === 0) out += '{}';
      else {
        out += '{';
        arrays.push(null);
        objects.push(v);
        keyLists.push(keys);
        next.push(0);
        pads.push(framePad);
      }
    } else out += JSON.stringify(v);
  };
  open(root, '');
  while (next.length > 0 && out.length < limit) {
    const top = next.length - 1;
    const arr = arrays[top];
    const keys = keyLists[top];
    const i = next[top];
    const pad = pads[top];
    if (i === (arr ? arr.length : (keys as string[]).length)) {
      arrays.pop();
      objects.pop();
      keyLists.pop();
      next.pop();
      pads.pop();
      out += (pad === null ? '' : '\n' + pad) + (arr ? ']' : '}');
      continue;
    }
    next[top] = i + 1;
    const inner = pad === null ? null : pad + step;
    out += (i > 0 ? ',' : '') + (inner === null ? '' : '\n' + inner);
    if (arr) open(arr[i], inner);
    else {
      const k = (keys as string[])[i];
      out += JSON.stringify(k) + (inner === null ? ':' : ': ');
      open((objects[top] as JsonObject)[k], inner);
    }
  }
  return out;
}

/** True when `v` nests containers more than `max` levels deep (a scalar is depth 0). */
export function deeperThan(v: Json, max: number): boolean {
  const stack: [Json, number][] = [[v, 0]];
  while (stack.length > 0) {
    const [x, d] = stack.pop() as [Json, number];
    if (typeof x !== 'object' || x === null) continue;
    if (d + 1 > max) return true;
    const kids = Array.isArray(x) ? x : Object.values(x);
    for (const k of kids) if (typeof k === 'object' && k !== null) stack.push([k, d + 1]);
  }
  return false;
}

/** Containers deeper than this are sent over the API as their JSON text (see `clipJson`). */
export const MAX_SENT_DEPTH = 64;

/** The start of the string that stands for a value nested deeper than `MAX_SENT_DEPTH`. */
export const DEEP_VALUE_MARK = '[nested too deep to send as a value; its JSON text follows] ';

export interface ClipLimits {
  /** Strings longer than this are cut, with a note of how much is left out. */
  maxChars: number;
  /** A container at this depth is replaced by DEEP_VALUE_MARK + its JSON text (itself cut at maxChars). */
  maxDepth: number;
}

/**
 * A JSON value fit to cross a process boundary: long strings cut and containers
 * nested deeper than `maxDepth` turned into their JSON text, without recursion.
 * Returns the value itself when nothing was cut. Objects are rebuilt without a
 * prototype, so a key named `__proto__` stays an ordinary key.
 */
export function clipJson(root: Json, limits: ClipLimits): { value: Json; clipped: boolean } {
  let clipped = false;
  const clipString = (s: string): string => {
    if (s.length <= limits.maxChars) return s;
    clipped = true;
    return `${s.slice(0, limits.maxChars)}… [clipped: ${s.length - limits.maxChars} more characters]`;
  };
  /** A leaf of the copy, or undefined for a container to copy level by level. */
  const leaf = (v: Json, depth: number): Json | undefined => {
    if (typeof v === 'string') return clipString(v);
    if (typeof v !== 'object' || v === null) return v;
    if (depth < limits.maxDepth) return undefined;
    clipped = true;
    return clipString(DEEP_VALUE_MARK + stringifyJson(v));
  };
  type CopyFrame = { src: Json[]; dst: Json[] } | { src: JsonObject; dst: JsonObject; keys: string[] };
  const copyOf = (v: Json[] | JsonObject): { copy: Json[] | JsonObject; frame: CopyFrame } => {
    if (Array.isArray(v)) {
      const dst: Json[] = [];
      return { copy: dst, frame: { src: v, dst } };
    }
    const dst = Object.create(null) as JsonObject;
    return { copy: dst, frame: { src: v, dst, keys: Object.keys(v) } };
  };

  const top = leaf(root, 0);
  if (top !== undefined) return clipped ? { value: top, clipped } : { value: root, clipped };
  const first = copyOf(root as Json[] | JsonObject);
  const work: { frame: CopyFrame; depth: number }[] = [{ frame: first.frame, depth: 0 }];
  while (work.length > 0) {
    const { frame, depth } = work.pop() as { frame: CopyFrame; depth: number };
    const n = 'keys' in frame ? frame.keys.length : frame.src.length;
    for (let i = 0; i < n; i++) {
      const x = 'keys' in frame ? frame.src[frame.keys[i]] : frame.src[i];
      let y = leaf(x, depth + 1);
      if (y === undefined) {
        const c = copyOf(x as Json[] | JsonObject);
        work.push({ frame: c.frame, depth: depth + 1 });
        y = c.copy;
      }
      if ('keys' in frame) frame.dst[frame.keys[i]] = y;
      else frame.dst.push(y);
    }
  }
  return clipped ? { value: first.copy, clipped } : { value: root, clipped };
}
