import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clipJson, deeperThan, DEEP_VALUE_MARK, jsonPrefix, stringifyIterative, stringifyJson } from './json-text';
import type { Json } from './ledger-types';

const deepArray = (depth: number): Json => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as Json;
const deepObject = (depth: number): Json => JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)) as Json;

describe('stringifyJson', () => {
  it('writes exactly what JSON.stringify writes, compact and indented', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (v, indent) => {
        const want = indent > 0 ? JSON.stringify(v, null, indent) : JSON.stringify(v);
        expect(stringifyIterative(v as Json, indent)).toBe(want);
        expect(stringifyJson(v as Json, indent)).toBe(want);
      }),
      { numRuns: 300, seed: 7 },
    );
    const proto = JSON.parse('{"__proto__":{"x":1},"constructor":2}') as Json;
    expect(stringifyIterative(proto)).toBe(JSON.stringify(proto));
  });

  it('serializes values far deeper than JSON.stringify can', () => {
    const d = deepArray(100_000);
    expect(() => JSON.stringify(d)).toThrow(RangeError);
    expect(stringifyJson(d)).toBe('['.repeat(100_000) + ']'.repeat(100_000));
    const o = deepObject(10_000);
    expect(stringifyJson(o)).toBe('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000));
  });

  it('previews a deep value by its first characters only', () => {
    expect(jsonPrefix(deepArray(100_000), 10).length).toBeLessThan(20);
  });
});

describe('deeperThan', () => {
  it('measures nesting without recursion', () => {
    expect(deeperThan(1, 0)).toBe(false);
    expect(deeperThan([], 0)).toBe(true);
    expect(deeperThan(deepArray(3), 3)).toBe(false);
    expect(deeperThan(deepArray(4), 3)).toBe(true);
    expect(deeperThan(deepArray(100_000), 99_999)).toBe(true);
  });
});

describe('clipJson', () => {
  it('returns the value itself when nothing needs clipping', () => {
    const v = { a: [1, 'x', { b: null }] };
    expect(clipJson(v, { maxChars: 10, maxDepth: 8 }).value).toBe(v);
  });

  it('cuts long strings and turns too-deep containers into their JSON text', () => {
    const r = clipJson({ s: 'x'.repeat(30), d: deepArray(100_000) }, { maxChars: 10, maxDepth: 3 });
    expect(r.clipped).toBe(true);
    const v = r.value as { s: string; d: Json };
    expect(v.s).toBe('xxxxxxxxxx… [clipped: 20 more characters]');
    // d is depth 1; its child at depth 2, grandchild at depth 3 becomes text.
    const grand = ((v.d as Json[])[0] as Json[])[0];
    expect(typeof grand).toBe('string');
    expect((grand as string).startsWith(DEEP_VALUE_MARK.slice(0, 10))).toBe(true);
    expect(deeperThan(r.value, 3)).toBe(false);
  });

  it('keeps __proto__ and constructor keys as ordinary keys', () => {
    const v = JSON.parse('{"__proto__":{"x":"long text"},"constructor":"y"}') as Json;
    const r = clipJson(v, { maxChars: 4, maxDepth: 8 });
    expect(Object.keys(r.value as object)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(r.value)).toBe('{"__proto__":{"x":"long… [clipped: 5 more characters]"},"constructor":"y"}');
  });
});
