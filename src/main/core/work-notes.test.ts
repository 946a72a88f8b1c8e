/**
 * The work fold from the reader's notes (work-notes.ts) is the fold from the entries' lines: on
 * every fixture and every leaf, fed in pieces (appends), resumed after a kept index, damaged.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { generateSession } from '../../generator';
import { FIXTURES } from '../../test-support/fixtures';
import { MemorySource } from './byte-source';
import { chainToRoot } from './chain';
import { Ledger } from './ledger';
import { KIND } from './ledger-index';
import { foldWork } from './work-fold';
import type { WorkEvent } from './work-notes';

/** Every .jsonl under the fixtures (the demo home's sessions too). */
function fixtureFiles(dir = FIXTURES): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? fixtureFiles(p) : n.endsWith('.jsonl') ? [p] : [];
  });
}

/** Entry `i`'s work event as a parse of its line gives it (the fold's reference). */
function lineEvent(l: Ledger, i: number): WorkEvent | null {
  const e = l.entry(i);
  return e.kind === 'work' ? { ts: e.ts, work: e.work } : null;
}

/** The fold of `chain` with every work entry read from its line: the rule before the notes. */
function lineFold(l: Ledger, chain: Int32Array): ReturnType<typeof foldWork> {
  const spy = vi.spyOn(l, 'workEvent').mockImplementation((i) => lineEvent(l, i));
  try {
    return foldWork(l, chain);
  } finally {
    spy.mockRestore();
  }
}

/** Work entries of `l`: each one's noted event is its line's, and every leaf's fold is the line fold. */
function expectSameAsLines(l: Ledger, label: string): number {
  let work = 0;
  for (let i = 0; i < l.index.count; i++) {
    if (l.index.kind[i] !== KIND.work) continue;
    work++;
    expect(l.workEvent(i), `${label}: entry ${i}`).toEqual(lineEvent(l, i));
  }
  for (const leaf of l.index.leaves()) {
    const chain = chainToRoot(l.index, leaf);
    expect(foldWork(l, chain), `${label}: leaf ${leaf}`).toEqual(lineFold(l, chain));
  }
  return work;
}

/** A generated session's bytes with damage around work entries: malformed, duplicated, torn, skimmed. */
function damagedWork(): Buffer {
  const g = generateSession({ seed: 31, entries: 1200, cwd: '/home/ana/projects/w', branchChance: 0.05 });
  const lines = g.bytes.toString('utf8').split('\n');
  lines.pop();
  const workAt = lines.flatMap((l, k) => (l.includes('"kind":"work"') ? [k] : []));
  expect(workAt.length).toBeGreaterThan(20);
  const [a, b, c, d, e] = workAt.slice(-5);
  const long = 'x'.repeat(4000);
  // No string work_id: malformed, folds into nothing.
  lines[a] = lines[a].replace(/"work_id":"[^"]*"/, '"work_id":7');
  // A long message text beside the work payload: the reader parses this line skimmed.
  lines[b] = lines[b].replace(
    '"kind":"work",',
    `"kind":"work","message":{"content":[{"type":"text","text":"${long}"}]},`,
  );
  // A long detail (kept whole: only message content is skimmed) and a state made null.
  lines[c] = lines[c].replace(/"work":\{/, `"work":{"detail":"${long}","state":null,`);
  lines.splice(d, 0, lines[workAt[0]]); // duplicate_id of a work entry: skipped
  lines.splice(e + 1, 0, '{"kind":"work","work":{"work_id":"w-torn"'); // torn
  return Buffer.from(lines.join('\n') + '\n', 'utf8');
}

describe('work notes: the fold from what the reader noted is the fold from the lines', () => {
  it('on every fixture, every leaf', () => {
    let work = 0;
    for (const f of fixtureFiles()) work += expectSameAsLines(Ledger.fromBytes(readFileSync(f)), f);
    expect(work).toBeGreaterThan(10);
  });

  it('on generated sessions with branches, fed in pieces as appends arrive', () => {
    for (const seed of [1, 2, 3]) {
      const g = generateSession({ seed, entries: 800, cwd: '/home/ana/projects/p', branchChance: 0.05 });
      const cuts = [0, 1, 2, 3, 4].map((k) => Math.floor((g.bytes.length * k * (seed + 1)) / 23) % g.bytes.length);
      cuts.push(g.bytes.length);
      cuts.sort((x, y) => x - y);
      const chunks = cuts.slice(1).map((end, k) => g.bytes.subarray(cuts[k], end));
      const l = Ledger.fromChunks(chunks);
      expect(expectSameAsLines(l, `seed ${seed}`)).toBeGreaterThan(10);
    }
  });

  it('on a damaged ledger (malformed, skimmed, duplicate and torn work lines)', () => {
    const l = Ledger.fromBytes(damagedWork());
    const codes = new Set(l.warningsSoFar().map((w) => w.code));
    expect(codes).toContain('duplicate_id');
    expect(codes).toContain('torn_line');
    expectSameAsLines(l, 'damaged');
  });

  it('after a resume from a kept index: entries read before it come from their lines', async () => {
    const bytes = damagedWork();
    const cut = bytes.lastIndexOf('\n', Math.floor(bytes.length / 2)) + 1;
    const first = Ledger.fromBytes(bytes.subarray(0, cut));
    const snap = first.snapshot();
    expect(snap).not.toBeNull();
    const resumed = await Ledger.resume(new MemorySource(bytes), snap!);
    const parsed = resumed.stats.entriesMaterialised;
    const chain = chainToRoot(resumed.index, resumed.index.activeLeaf);
    const expected = lineFold(
      Ledger.fromBytes(bytes),
      chainToRoot(Ledger.fromBytes(bytes).index, resumed.index.activeLeaf),
    );
    expect(foldWork(resumed, chain)).toEqual(expected);
    // The work entries restored (not read by this reader) were parsed, and the one line the reader skimmed.
    const restoredWork = chain.filter((i) => i < first.index.count && resumed.index.kind[i] === KIND.work).length;
    expect(restoredWork).toBeGreaterThan(0);
    expect(resumed.stats.entriesMaterialised - parsed).toBeGreaterThanOrEqual(restoredWork);
    expect(resumed.stats.entriesMaterialised - parsed).toBeLessThanOrEqual(restoredWork + 1);
    expectSameAsLines(resumed, 'resumed');
  });
});
