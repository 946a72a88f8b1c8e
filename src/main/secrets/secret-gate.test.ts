import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mayHoldSecretBytes } from './secret-gate';
import { jsLineGate, lineGate, wasmLineGate, type LineGate } from './secret-gate-wasm';

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

/** Lines back to back in one buffer, as a batch holds them, with their ends. */
function batchOf(lines: Buffer[], lead = 0): { all: Buffer; ends: number[] } {
  const ends: number[] = [];
  let at = 0;
  for (const l of lines) ends.push((at += l.length));
  // `lead` bytes before the batch, so the lines lie at every offset against 16-byte blocks.
  const all = Buffer.concat([Buffer.alloc(lead, 0x61), ...lines]).subarray(lead);
  return { all, ends };
}

/** Lines at the edges of the rule: runs of 15, 16 and 17 word bytes at every offset. */
function edgeLines(): Buffer[] {
  const out: Buffer[] = [];
  const runs = [
    (n: number) => 'x'.repeat(n), // letters that are no hex digits
    (n: number) => 'a'.repeat(n - 1) + 'g', // hex but one
    (n: number) => 'g' + '0'.repeat(n - 1),
    (n: number) => 'deadbeef-0123456789abcdef'.slice(0, n), // hex only
    (n: number) => '_'.repeat(n),
  ];
  const befores = ['', ' ', '"', 'é', '\u00ff', '/'];
  const afters = ['', ' ', '"', '":', '":1', '" :', 'é', '\\n'];
  for (const run of runs)
    for (const n of [15, 16, 17, 63, 64, 65])
      for (let at = 0; at < 70; at += at < 20 ? 1 : 7)
        for (const before of befores)
          for (const after of afters) out.push(Buffer.from(' '.repeat(at) + before + run(n) + after, 'utf8'));
  // Runs made of two that a non-word byte splits, either side of a 64-byte chunk's edge.
  for (let at = 40; at < 90; at++) out.push(Buffer.from('y'.repeat(at) + '.' + 'y'.repeat(15) + ' '));
  return out;
}

describe('the gate over a batch of lines', () => {
  const wasm = wasmLineGate();

  it('is the WebAssembly one in this Node', () => {
    expect(wasm?.kind).toBe('wasm');
    expect(lineGate().kind).toBe('wasm');
  });

  const gates: LineGate[] = [jsLineGate, ...(wasm ? [wasm] : [])];
  for (const g of gates) {
    it(`answers as the rule read byte by byte does (${g.kind}), on random lines at every offset`, () => {
      let seed = 777;
      const rand = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
      let passed = 0;
      let lines = 0;
      for (let b = 0; b < 400; b++) {
        const batch = Array.from({ length: 1 + Math.floor(rand() * 60) }, () =>
          // Now and then a long line, over several 64-byte chunks.
          rand() < 0.1 ? Buffer.concat(Array.from({ length: 8 }, () => randomLine(rand))) : randomLine(rand),
        );
        const { all, ends } = batchOf(batch, b & 15);
        const got = g.gateLines(all, ends);
        batch.forEach((line, k) => {
          const want = reference(line) ? 1 : 0;
          if (got[k] !== want) expect({ line: line.toString('latin1'), gate: got[k] }).toBe(null);
          passed += want;
          lines++;
        });
      }
      expect(passed).toBeGreaterThan(lines / 10);
      expect(passed).toBeLessThan((lines * 9) / 10);
    });

    it(`answers as the rule does (${g.kind}) at the edges: runs of 15/16/17, hex runs, JSON keys, chunk edges`, () => {
      const lines = edgeLines();
      let passed = 0;
      for (const lead of [0, 1, 7, 15]) {
        const { all, ends } = batchOf(lines, lead);
        const got = g.gateLines(all, ends);
        lines.forEach((line, k) => {
          const want = reference(line) ? 1 : 0;
          if (got[k] !== want) expect({ line: line.toString('latin1'), lead, gate: got[k] }).toBe(null);
          passed += want;
        });
      }
      expect(passed).toBeGreaterThan(1000);
      expect(passed).toBeLessThan(lines.length * 4 - 1000);
    });
  }

  it('gates a batch larger than its memory, and an empty one', () => {
    const g = wasm ?? jsLineGate;
    const big = Buffer.alloc(3 << 20, 0x20);
    big.write('sk_live_ABCDEFGHIJ', (3 << 20) - 20);
    expect([...g.gateLines(big, [1 << 20, 2 << 20, 3 << 20])]).toEqual([0, 0, 1]);
    expect([...g.gateLines(Buffer.alloc(0), [])]).toEqual([]);
  });

  it('runs the module compiled from its committed source (secret-gate.wat)', () => {
    const script = fileURLToPath(new URL('../../../scripts/build-gate-wasm.mjs', import.meta.url));
    // Exits non-zero (and so throws) when the committed bytes are not what the source compiles to.
    execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' });
  });
});
