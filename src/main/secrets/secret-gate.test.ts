import { describe, expect, it } from 'vitest';
import { mayHoldSecretBytes } from './secret-gate';

/** The gate's rule read plainly, every byte in turn: what the fast gate must answer. */
function reference(b: Buffer): boolean {
  const word = (c: number): boolean => /[A-Za-z0-9_-]/.test(String.fromCharCode(c));
  const hex = (c: number): boolean => /[0-9a-fA-F-]/.test(String.fromCharCode(c));
  let run = 0;
  let nonHex = false;
  for (let k = 0; k <= b.length; k++) {
    const c = k < b.length ? b[k] : -1;
    if (c >= 0 && word(c)) {
      run++;
      nonHex ||= !hex(c);
      continue;
    }
    const jsonKey = c === 34 && b[k + 1] === 58;
    if (run >= 16 && nonHex && !jsonKey) return true;
    run = 0;
    nonHex = false;
  }
  const s = b.toString('latin1');
  return (
    (/:\/\/[^\s/"'@]{0,509}@/.test(s) && /:\/\/[^\s/"'@]*:[^\s/"'@]*@/.test(s)) ||
    ['PRIVATE KEY', '_authToken'].some((x) => s.includes(x))
  );
}

/** Random bytes from pieces that make runs near 16, hex runs, JSON keys, URLs and non-ASCII. */
function randomLine(rand: () => number): Buffer {
  const pieces = [
    'a',
    'Z',
    '0',
    '7',
    'f',
    'E',
    '-',
    '_',
    ' ',
    '"',
    '":',
    ':',
    '/',
    '@',
    '://',
    'x:y@',
    'é',
    '\\n',
    'deadbeef',
    'abcdefgh',
    '0123456789',
    'ccount',
    'KEY',
    '\u00ff',
  ];
  let s = '';
  const n = Math.floor(rand() * 120);
  for (let k = 0; k < n; k++) s += pieces[Math.floor(rand() * pieces.length)];
  return Buffer.from(s, 'utf8');
}

describe('the gate', () => {
  it('answers as the rule read byte by byte does, on random lines', () => {
    let seed = 12345;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    let passed = 0;
    for (let k = 0; k < 20000; k++) {
      // At every offset against 4-byte alignment (the gate reads aligned words first).
      const bytes = randomLine(rand);
      const shift = k & 3;
      const line = Buffer.concat([Buffer.alloc(shift), bytes]).subarray(shift);
      const want = reference(line);
      if (mayHoldSecretBytes(line) !== want) expect({ line: line.toString('latin1'), shift, gate: !want }).toBe(null);
      if (want) passed++;
    }
    // Both answers occur often enough for the comparison to mean something.
    expect(passed).toBeGreaterThan(2000);
    expect(passed).toBeLessThan(18000);
  });

  it('finds a run of 16 wherever it lies against the 16-byte stride', () => {
    for (let at = 0; at < 40; at++) {
      const token = 'sk_live_ABCDEFGH';
      expect(mayHoldSecretBytes(Buffer.from(' '.repeat(at) + token + ' '.repeat(40 - at)))).toBe(true);
      expect(mayHoldSecretBytes(Buffer.from(' '.repeat(at) + token.slice(1) + ' ...'))).toBe(false);
      // Right after another run (hex only: no token), wherever that one ends.
      expect(mayHoldSecretBytes(Buffer.from('0'.repeat(at) + ' ' + token))).toBe(true);
      expect(mayHoldSecretBytes(Buffer.from('0'.repeat(at) + ' ' + token + ' ' + '0'.repeat(at)))).toBe(true);
      expect(mayHoldSecretBytes(Buffer.from(' '.repeat(at) + '"' + token + '": 1'))).toBe(false);
      expect(mayHoldSecretBytes(Buffer.from(' '.repeat(at) + 'deadbeef-0123456789abcdef'))).toBe(false);
    }
  });

  it("lets no line through for an AWS account id's name alone (the preset reports no account ids)", () => {
    expect(mayHoldSecretBytes(Buffer.from('{"text":"aws_account_id = 1234-5678-9012"}'))).toBe(false);
    expect(mayHoldSecretBytes(Buffer.from('{"text":"AWS ACCOUNT: 123456789012"}'))).toBe(false);
  });
});
