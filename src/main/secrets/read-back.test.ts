import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lineHash, readBackLines } from './read-back';
import type { LineBatch } from './scan-batch';
import type { ReadBack } from './scan-protocol';

const dir = mkdtempSync(join(tmpdir(), 'vak-read-back-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file of `lines` (one apart from the next by a gap of other lines), and lines 0, 2, 3 and 5 as a batch names them. */
function fileOf(name: string, lines: string[]): { path: string; batch: LineBatch; where: ReadBack; picked: string[] } {
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  const st = statSync(path);
  const offsets: number[] = [];
  let at = 0;
  for (const l of lines) {
    offsets.push(at);
    at += Buffer.byteLength(l) + 1;
  }
  const pick = [0, 2, 3, 5];
  const picked = pick.map((k) => lines[k]);
  const ends: number[] = [];
  let used = 0;
  for (const l of picked) ends.push((used += Buffer.byteLength(l)));
  return {
    path,
    picked,
    batch: { buf: new ArrayBuffer(0), ends, lineNos: pick.map((k) => k + 1), entries: pick },
    where: {
      file: { path, dev: st.dev, ino: st.ino },
      offsets: pick.map((k) => offsets[k]),
      hashes: picked.map((l) => lineHash(Buffer.from(l))),
    },
  };
}

const LINES = [
  '{"id":"a","t":"x"}',
  '{"id":"b"}',
  '{"id":"c","t":"é"}',
  '{"id":"d"}',
  'y'.repeat(70_000),
  '{"id":"f"}',
];
const text = (b: LineBatch): string[] =>
  b.ends.map((e, k) => Buffer.from(b.buf).toString('utf8', k === 0 ? 0 : b.ends[k - 1], e));

describe('lines read back from their file for the secret scan', () => {
  it('are the bytes that were read, with their line numbers and entries', () => {
    const f = fileOf('same.jsonl', LINES);
    const r = readBackLines(f.batch, f.where);
    expect(r.changed).toBe(0);
    expect(text(r.batch)).toEqual(f.picked);
    expect(r.batch.lineNos).toEqual([1, 3, 4, 6]);
    expect(r.batch.entries).toEqual([0, 2, 3, 5]);
  });

  it('leave out a line whose bytes changed since, and only that one', () => {
    const f = fileOf('changed.jsonl', LINES);
    writeFileSync(f.path, [...LINES.slice(0, 3), '{"id":"D"}', ...LINES.slice(4)].join('\n') + '\n');
    const r = readBackLines(f.batch, f.where);
    expect(r.changed).toBe(1);
    expect(r.batch.entries).toEqual([0, 2, 5]);
    expect(text(r.batch)).toEqual([LINES[0], LINES[2], LINES[5]]);
  });

  it('are all changed when the file was cut short, replaced or removed', () => {
    const cut = fileOf('cut.jsonl', LINES);
    truncateSync(cut.path, 40);
    expect(readBackLines(cut.batch, cut.where).changed).toBe(3);
    const replaced = fileOf('replaced.jsonl', LINES);
    const other = { ...replaced.where, file: { ...replaced.where.file, ino: replaced.where.file.ino + 1 } };
    expect(readBackLines(replaced.batch, other)).toMatchObject({ changed: 4, batch: { ends: [] } });
    const gone = fileOf('gone.jsonl', LINES);
    rmSync(gone.path);
    expect(readBackLines(gone.batch, gone.where).changed).toBe(4);
  });

  it('are all changed when a FIFO took the file’s place, without waiting for a writer', () => {
    const swapped = fileOf('swapped.jsonl', LINES);
    rmSync(swapped.path);
    execFileSync('mkfifo', [swapped.path]);
    // An open that waits on a FIFO blocks its thread for good: the read-back runs in a child
    // process, stopped after a bound, so such a wait fails this test instead of hanging it.
    const script = join(dir, 'read-fifo.mts');
    writeFileSync(
      script,
      [
        `import { readBackLines } from ${JSON.stringify(resolve('src/main/secrets/read-back.ts'))};`,
        `const r = readBackLines(${JSON.stringify(swapped.batch)}, ${JSON.stringify(swapped.where)});`,
        `console.log(JSON.stringify({ changed: r.changed, kept: r.batch.ends.length }));`,
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, ['bin/run-ts.mjs', script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.signal, 'the read-back waited on a FIFO').toBeNull();
    expect(JSON.parse(run.stdout)).toEqual({ changed: 4, kept: 0 });
  }, 90_000);
});
