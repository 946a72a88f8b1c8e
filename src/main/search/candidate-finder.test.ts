import { describe, expect, it } from 'vitest';
import { generateSession } from '../../generator';
import { candidateFinder, candidatePattern, maskedNeedle, rarestByte, type NeedleSearch } from './candidate-finder';
import { prepareQuery } from './text-match';

/** The lines (by number) a finder reports over `buf`, asked as the scanner asks: from each reported line's end. */
function linesFound(buf: Buffer, q: string, fast: boolean, search: NeedleSearch = 'auto'): Set<number> {
  const pq = prepareQuery(q);
  const needle = fast ? maskedNeedle(pq) : null;
  const next = candidateFinder(buf, buf.length, needle, needle === null ? candidatePattern(pq) : null, search);
  const out = new Set<number>();
  for (let pos = 0; pos < buf.length;) {
    const at = next(pos);
    if (at < 0) break;
    const start = buf.lastIndexOf(10, at) + 1;
    let n = 0;
    for (let k = buf.indexOf(10); k >= 0 && k < start; k = buf.indexOf(10, k + 1)) n++;
    out.add(n + 1);
    const end = buf.indexOf(10, at);
    pos = end < 0 ? buf.length : end + 1;
  }
  return out;
}

/** Queries of every shape the prefilter treats apart: cases, spaces, a path, letters with other spellings. */
const QUERIES = ['cargo test', 'CARGO TEST', 'speed up the CI job', 'tokenizer', 'src/lock.rs', 'approval', 'kelvin'];

describe('the masked-byte finder', () => {
  const crafted = [
    'cargo test --all',
    'CARGO TEST',
    'Cargo Test',
    'cArGo tEsT',
    'cargo  test',
    'cargo\\u0020test',
    'c\\u0061rgo test',
    'nothing here',
    'speed up the CI job now',
    'SPEED UP THE Cİ JOB',
    'speed up the \\u0130 job',
    'Speed up the cı job',
    'the \u212Aelvin scale and kelvin',
    'a cargo_test{} [cargo]test',
    'The QUOKKA-umbrella Rollout plan',
    'the quo\u212Aka-umbrella rollout plan',
    'the quokka umbrella rollout plan',
  ].map((text, k) => JSON.stringify({ id: `x${k}`, kind: 'message', text }));
  const generated = generateSession({ seed: 7, bytes: 1 << 20, cwd: '/gen' })
    .bytes.toString('utf8')
    .split('\n');
  const buf = Buffer.from([...crafted, ...generated.slice(0, -1)].join('\n') + '\n', 'utf8');

  it('is used for a phrase with a long enough run, not for one without', () => {
    expect(maskedNeedle(prepareQuery('cargo test'))?.bytes.length).toBe(10);
    // `i` and `k` have spellings of other lengths (İ, K): the run stops at them.
    expect(maskedNeedle(prepareQuery('speed up the CI job'))?.bytes.toString('latin1')).toBe('SPEED\0UP\0THE\0C');
    expect(maskedNeedle(prepareQuery('naïve'))).toBeNull();
    expect(maskedNeedle(prepareQuery('kit'))).toBeNull();
  });

  it('finds every line the regular expression finds, in every case and through escapes', () => {
    for (const q of QUERIES) {
      const slow = linesFound(buf, q, false);
      const fast = linesFound(buf, q, true);
      for (const n of slow) expect(fast.has(n), `${q}: line ${n}`).toBe(true);
      // And not many more: the anchor is checked where the run is found.
      expect(fast.size, q).toBeLessThanOrEqual(slow.size + 2);
    }
    const cargo = linesFound(buf, 'cargo test', true);
    // Every case and both escapes; not the line with two spaces, nor the one with `_`.
    for (const n of [1, 2, 3, 4, 6, 7]) expect(cargo.has(n), `line ${n}`).toBe(true);
    expect(cargo.has(5)).toBe(false);
    expect(cargo.has(14)).toBe(false);
    const quokka = linesFound(buf, 'the quokka-umbrella rollout plan', true);
    for (const n of [15, 16]) expect(quokka.has(n), `line ${n}`).toBe(true);
    expect(quokka.has(17)).toBe(false);
    const ci = linesFound(buf, 'speed up the ci job', true);
    for (const n of [9, 10, 11]) expect(ci.has(n), `line ${n}`).toBe(true);
  });

  it('finds the same lines by a rare byte of the run as over the masked chunk', () => {
    for (const q of QUERIES) {
      const masked = linesFound(buf, q, true, 'masked');
      expect(linesFound(buf, q, true, 'rare-byte'), q).toEqual(masked);
      expect(linesFound(buf, q, true, 'auto'), q).toEqual(masked);
    }
  });

  it('looks for a byte alone only where it is rare in the chunk, in both its cases, in any run', () => {
    const rare = (text: Buffer, q: string) => {
      const r = rarestByte(text, maskedNeedle(prepareQuery(q))!);
      return r && String.fromCharCode(r.run.bytes[r.at]);
    };
    // `q` is rare in the generated text, though outside the longest run (`k` ends a run: K).
    expect(rare(buf, 'the quokka-umbrella rollout plan')).toBe('Q');
    expect(rare(buf, '   eee   ')).toBeNull();
    // An upper-case letter counts against a lower-case query.
    expect(rare(Buffer.from('QQQQ '.repeat(4000), 'latin1'), 'qqqq')).toBeNull();
  });
});
