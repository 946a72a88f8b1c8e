import { describe, expect, it } from 'vitest';
import { jsonFault, parseJsonText } from './json-problem';

const SAMPLES = [
  '{"models": {"a": {"input": 1.5, "output": -2e-3, "cache_read": 0, "cache_write": 1E+2}}, "note": "x\\u00e9\\n"}',
  '[1, [2, [3, {}], []], {"a": [true, false, null]}, "s", -0.5]',
  '  "just a string"  ',
  '0',
  '{"deep": ' + '['.repeat(5000) + ']'.repeat(5000) + '}',
];
const ALPHABET = ' \t\n{}[]:,"\\-+.0123456789eEtfnrulsaxu';

/** A small deterministic generator (the test must not pass by luck one run and fail the next). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('jsonFault', () => {
  it('agrees with JSON.parse on every sample and thousands of mutations of them', () => {
    const r = rng(42);
    let broken = 0;
    for (const sample of SAMPLES) {
      expect(jsonFault(sample)).toBeNull();
      for (let k = 0, runs = sample.length > 1000 ? 100 : 3000; k < runs; k++) {
        let t = sample;
        for (let m = 1 + Math.floor(r() * 3); m > 0; m--) {
          const at = Math.floor(r() * (t.length + 1));
          const ch = ALPHABET[Math.floor(r() * ALPHABET.length)];
          const op = r();
          t =
            op < 0.34
              ? t.slice(0, at) + t.slice(at + 1)
              : op < 0.67
                ? t.slice(0, at) + ch + t.slice(at)
                : t.slice(0, at) + ch + t.slice(at + 1);
        }
        let valid = true;
        try {
          JSON.parse(t);
        } catch {
          valid = false;
          broken++;
        }
        const f = jsonFault(t);
        if ((f === null) !== valid) throw new Error(`disagrees with JSON.parse on ${JSON.stringify(t.slice(0, 200))}`);
      }
    }
    expect(broken).toBeGreaterThan(4000);
  });

  it.each([
    ['', 1, 1, /ends too early/],
    ['root:*:20210:0:99999:7:::', 1, 1, /a value was expected/],
    ['{"a": 1,\n  "b" 2}', 2, 7, /colon/],
    ['{"a": "unterminated', 1, 7, /no closing quote/],
    ['[1, 2,]', 1, 7, /a value was expected/],
    ['{"a": 1} trailing', 1, 10, /more text after the value/],
    ['{"a": "\\x"}', 1, 8, /invalid escape/],
    ['\ufeff{}', 1, 1, /a value was expected/],
  ])('%j: line %i, column %i', (text, line, column, what) => {
    const r = parseJsonText(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problem).toContain(`line ${line}, column ${column}`);
    expect(r.problem).toMatch(what);
  });

  it('quotes none of the text', () => {
    const secret = 'root:$6$saltsalt$hashhashhash:19000:0:99999:7:::';
    for (const text of [secret, `{"k": "${secret}`, `["${secret}" x]`, `{"${secret}": 1,}`]) {
      const r = parseJsonText(text);
      expect(r.ok).toBe(false);
      for (const piece of ['root', 'salt', 'hash', '19000']) expect(JSON.stringify(r)).not.toContain(piece);
    }
  });
});
