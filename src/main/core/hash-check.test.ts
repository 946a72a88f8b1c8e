import { readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateSession } from '../../generator';
import { fixtureCases } from '../../test-support/fixtures';
import { readerReport } from '../../test-support/reader-report';
import { splitAt } from '../../test-support/split-at';
import { useTempDir } from '../../test-support/temp-dir';
import { F_HASH_MISMATCH } from './ledger-index';
import { Ledger } from './ledger';

/**
 * A generated ledger with damage of every kind a hash check meets: prev_hash wrong (hex of
 * another line, upper case, null, not hex), torn lines (they still count for the chain),
 * duplicate ids, an invalid entry, and a torn tail.
 */
function damaged(seed: number, picks: number[]): Buffer {
  const lines = generateSession({ seed, entries: 60, cwd: '/w' }).bytes.toString('utf8').trimEnd().split('\n');
  const hex = (s: string): string => s.replace(/[0-9a-f]/, (c) => (c === 'a' ? 'b' : 'a'));
  for (const [n, p] of picks.entries()) {
    const k = 1 + (p % (lines.length - 1));
    if (lines[k].startsWith('{"torn"')) continue; // already damaged
    const o = JSON.parse(lines[k]) as Record<string, unknown>;
    switch (n % 7) {
      case 0:
        o['prev_hash'] = hex(String(o['prev_hash']));
        break;
      case 1:
        o['prev_hash'] = String(o['prev_hash']).toUpperCase();
        break;
      case 2:
        o['prev_hash'] = null;
        break;
      case 3:
        o['prev_hash'] = 'not a hash';
        break;
      case 4:
        lines.splice(k, 0, '{"torn": tru');
        continue;
      case 5:
        o['id'] = (JSON.parse(lines[0]) as { id: string }).id; // a duplicate of the header's id
        break;
      case 6:
        o['ts'] = 7; // invalid entry: not checked for its hash
        break;
    }
    lines[k] = JSON.stringify(o);
  }
  return Buffer.from(lines.join('\n') + '\n{"id":"torn tail');
}

const tempDir = useTempDir('vak-hash-check-');

describe('a deferred hash check reports exactly what hashing while reading reports', () => {
  it('every fixture, any chunks, any number of claims kept before hashing inline again (property)', () => {
    const files = fixtureCases().map((c) => readFileSync(c.file));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: files.length - 1 }),
        fc.array(fc.integer({ min: 0, max: 100_000 }), { maxLength: 12 }),
        fc.integer({ min: 1, max: 40 }),
        (k, cuts, maxClaims) => {
          const bytes = files[k];
          const deferred = Ledger.fromChunks(
            splitAt(
              bytes,
              cuts.map((c) => c % (bytes.length + 1)),
            ),
            { maxClaims },
          );
          expect(readerReport(deferred)).toEqual(readerReport(Ledger.fromBytes(bytes)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('damaged ledgers: wrong, upper-case, null and non-hex prev_hash, torn lines, duplicates (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 100_000 }), { maxLength: 8 }),
        fc.integer({ min: 1, max: 100 }),
        (seed, picks, cuts, maxClaims) => {
          const bytes = damaged(seed, picks);
          const inline = Ledger.fromBytes(bytes);
          expect(inline.warnings().some((w) => w.code === 'hash_mismatch')).toBe(true);
          expect(
            readerReport(
              Ledger.fromChunks(
                splitAt(
                  bytes,
                  cuts.map((c) => c % (bytes.length + 1)),
                ),
                { maxClaims },
              ),
            ),
          ).toEqual(readerReport(inline));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('until checked, only the hash mismatches are missing; checked in small steps, they are all there', async () => {
    const bytes = damaged(11, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const inline = Ledger.fromBytes(bytes);
    const mismatches = inline.warnings().filter((w) => w.code === 'hash_mismatch');
    expect(mismatches.length).toBeGreaterThan(2);

    const l = Ledger.fromChunks(splitAt(bytes, [100, 5000, 5001]), {});
    expect(l.hashCheckPending).toBe(true);
    expect(l.warningsSoFar()).toEqual(inline.warnings().filter((w) => w.code !== 'hash_mismatch'));
    const flagged = (x: Ledger): number[] =>
      Array.from(x.index.flags.subarray(0, x.index.count)).flatMap((f, i) => (f & F_HASH_MISMATCH ? [i] : []));
    expect(flagged(l)).toEqual([]);
    // The last line's hash was taken as it was read: a writer links to it before any check.
    expect(l.lastPhysicalLine()).toEqual(inline.lastPhysicalLine());

    expect(await l.checkHashes(300)).toEqual({ mismatches: mismatches.length });
    expect(l.hashCheckPending).toBe(false);
    expect(l.warningsSoFar()).toEqual(inline.warnings());
    expect(flagged(l)).toEqual(flagged(inline));
    expect(await l.checkHashes()).toEqual({ mismatches: mismatches.length }); // done: what it found
  });

  it('a big first open defers its check, reads the rest hashing nothing, and the check finds what a whole read finds', async () => {
    const dir = tempDir();
    const file = join(dir, 's.jsonl');
    const torn = damaged(5, [0, 3, 8, 13, 21]);
    const bytes = torn.subarray(0, torn.lastIndexOf(10) + 1); // no torn tail: appends link to the last line
    writeFileSync(file, bytes);
    const small = await Ledger.open(file, { deferHashCheck: true, maxBytes: bytes.length + 1 });
    expect(small.hashCheckPending).toBe(false); // read whole at once: hashed as read

    // `firstBytes`: a file over `maxBytes` answers after fewer bytes; one within it is read whole still.
    const early = await Ledger.open(file, { deferHashCheck: true, maxBytes: 4000, firstBytes: 1000 });
    expect([early.moreToRead, early.hashCheckPending, early.bytesRead <= 1000]).toEqual([true, true, true]);
    const within = await Ledger.open(file, { deferHashCheck: true, maxBytes: bytes.length, firstBytes: 1000 });
    expect([within.moreToRead, within.bytesRead]).toEqual([false, bytes.length]);
    for (const x of [early, within]) x.close();

    const l = await Ledger.open(file, { deferHashCheck: true, maxBytes: 4000 });
    expect(l.moreToRead).toBe(true);
    expect(l.hashCheckPending).toBe(true);
    await l.refresh({ maxBytes: 3000 });
    await l.refresh();
    expect(l.moreToRead).toBe(false);
    const checked = l.checkHashes(1000);
    // Appended while the check runs (it yields between steps): hashed as read, the region ended
    // when the check started. One line links right, one wrong.
    const line = (id: string, prev: string | null): string =>
      JSON.stringify({ id, parent_id: null, ts: '2026-11-29T12:00:00.000Z', prev_hash: prev, kind: 'goal' }) + '\n';
    const first = line('appended-1', l.lastLineHash);
    appendFileSync(file, first + line('appended-2', l.lastLineHash));
    expect(await l.refresh()).toMatchObject({ kind: 'appended', newEntries: 2 });
    const all = readFileSync(file);
    const inline = Ledger.fromBytes(all);
    expect(await checked).toEqual({
      mismatches: inline
        .warnings()
        .filter((w) => w.code === 'hash_mismatch' && w.line <= bytes.toString().split('\n').length - 1).length,
    });
    expect(
      inline
        .warnings()
        .filter((w) => w.code === 'hash_mismatch')
        .at(-1)?.id,
    ).toBe('appended-2');
    expect(readerReport(l)).toEqual(readerReport(inline));
    for (const x of [small, l]) x.close();
  });

  it('warnings() and snapshot() finish a pending check first; a reload drops it', async () => {
    const file = join(tempDir(), 's.jsonl');
    const bytes = damaged(9, [0, 1, 2]);
    writeFileSync(file, bytes);
    const inline = await Ledger.open(file);

    const a = await Ledger.open(file, { deferHashCheck: true, maxBytes: 2000 });
    await a.refresh();
    expect(a.warnings()).toEqual(inline.warnings());
    expect(a.hashCheckPending).toBe(false);
    // Whoever runs the check in steps still hears what it found.
    expect(await a.checkHashes()).toEqual({
      mismatches: inline.warnings().filter((w) => w.code === 'hash_mismatch').length,
    });

    const b = await Ledger.open(file, { deferHashCheck: true, maxBytes: 2000 });
    await b.refresh();
    expect(b.snapshot()!.warnings).toEqual(inline.warnings().filter((w) => w.code !== 'unterminated_tail'));

    const c = await Ledger.open(file, { deferHashCheck: true, maxBytes: 2000 });
    writeFileSync(file, bytes.subarray(0, 1500)); // shrunk: read again from byte 0, hashing as it reads
    expect((await c.refresh()).kind).toBe('reloaded');
    expect(c.hashCheckPending).toBe(false);
    expect(await c.checkHashes()).toBeNull();
    expect(readerReport(c)).toEqual(readerReport(Ledger.fromBytes(bytes.subarray(0, 1500))));
    for (const x of [inline, a, b, c]) x.close();
  });

  it('a file cut or rewritten under a pending check: the check ends (no hang); a cut file is read again', async () => {
    for (const change of ['cut', 'rewritten'] as const) {
      const file = join(tempDir(), 's.jsonl');
      const torn = damaged(3, [0, 2]);
      const bytes = torn.subarray(0, torn.lastIndexOf(10) + 1);
      writeFileSync(file, bytes);
      const l = await Ledger.open(file, { deferHashCheck: true, maxBytes: 1000 });
      await l.refresh();
      expect(l.hashCheckPending).toBe(true);
      // Cut to its first 1,000 bytes, or every `\n` but the last turned into a space.
      const now =
        change === 'cut'
          ? bytes.subarray(0, 1000)
          : Buffer.from(bytes.toString('latin1').slice(0, -1).replaceAll('\n', ' ') + '\n', 'latin1');
      writeFileSync(file, now);
      expect(await l.checkHashes(500)).not.toBeNull();
      if (change === 'cut') {
        expect((await l.refresh()).kind).toBe('reloaded');
        expect(readerReport(l)).toEqual(readerReport(Ledger.fromBytes(now)));
      }
      l.close();
    }
  });
});
