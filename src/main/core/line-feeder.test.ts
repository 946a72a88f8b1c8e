import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtureCases } from '../../test-support/fixtures';
import { readerReport } from '../../test-support/reader-report';
import { splitAt } from '../../test-support/split-at';
import { generateSession } from '../../generator';
import { Ledger } from './ledger';

describe('the reader gives the same result whatever the chunk boundaries', () => {
  for (const name of ['damaged', 'linear']) {
    it(`${name}.jsonl split into two at every byte`, () => {
      const bytes = readFileSync(fixtureCases().find((c) => c.name === name)!.file);
      const whole = readerReport(Ledger.fromBytes(bytes));
      for (let cut = 0; cut <= bytes.length; cut++) {
        const got = readerReport(Ledger.fromChunks(splitAt(bytes, [cut])));
        if (JSON.stringify(got) !== JSON.stringify(whole)) expect({ cut, got }).toEqual({ cut, got: whole });
      }
    });
  }

  it('every fixture, split anywhere into many chunks (property)', () => {
    const files = fixtureCases().map((c) => readFileSync(c.file));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: files.length - 1 }),
        fc.array(fc.integer({ min: 0, max: 100_000 }), { maxLength: 40 }),
        (k, cuts) => {
          const bytes = files[k];
          const got = readerReport(
            Ledger.fromChunks(
              splitAt(
                bytes,
                cuts.map((c) => c % (bytes.length + 1)),
              ),
            ),
          );
          expect(got).toEqual(readerReport(Ledger.fromBytes(bytes)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('single-byte chunks of a generated ledger with a 200 KB line', () => {
    const g = generateSession({ seed: 3, entries: 40, cwd: '/w' });
    const big = Buffer.concat([g.bytes.subarray(0, g.bytes.length - 1), Buffer.from('x'.repeat(200_000))]);
    const chunks = Array.from({ length: big.length }, (_, k) => big.subarray(k, k + 1));
    expect(readerReport(Ledger.fromChunks(chunks))).toEqual(readerReport(Ledger.fromBytes(big)));
  });
});
