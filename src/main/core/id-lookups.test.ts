import { hash } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readerReport } from '../../test-support/reader-report';
import { useTempDir } from '../../test-support/temp-dir';
import { FileSource } from './byte-source';
import { Ledger } from './ledger';
import { planLeaf } from './leaf-plan';
import { project } from './projection';
import { turnCacheOf } from './turn-cache';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { NO_PARENT, ORPHAN } from './ledger-index';
import { snapshotMismatch } from './ledger-snapshot';
import { decodeSnapshot, encodeSnapshot } from './snapshot-codec';

/**
 * A reader tells repeats and parents without its id map when the ids increase and a parent is one of
 * the last entries (LedgerIndex.repeatOf, recentIndexOf): what it reports must be what looking every
 * id up reports. The model below is that lookup, written out: an id seen before is a duplicate_id
 * (skipped), a parent_id no earlier accepted entry has makes an orphan.
 */

const tmp = useTempDir();

/** One line after the header: its id and what its parent_id names. */
interface Step {
  id: string;
  parent: { to: 'none' } | { to: 'back'; k: number } | { to: 'missing' };
}

/** Ids that mostly increase (as vak's UUIDv7 do), with repeats and steps back among them. */
const mostlyIncreasing = fc
  .array(
    fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 1, max: 3 }) },
      { weight: 1, arbitrary: fc.integer({ min: -4, max: 0 }) },
    ),
    {
      maxLength: 40,
    },
  )
  .map((deltas) => {
    let n = 10;
    return deltas.map((d) => `id-${String((n = Math.max(0, n + d))).padStart(4, '0')}`);
  });
/** Ids from a few letters: repeats everywhere, no order. */
const anyIds = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'id-0001', 'id-9999'), {
  maxLength: 40,
});

const steps = fc
  .oneof(mostlyIncreasing, anyIds)
  .chain((ids) =>
    fc.tuple(
      ...ids.map((id) =>
        fc
          .oneof(
            { weight: 1, arbitrary: fc.constant({ to: 'none' as const }) },
            { weight: 8, arbitrary: fc.integer({ min: 1, max: 8 }).map((k) => ({ to: 'back' as const, k })) },
            { weight: 1, arbitrary: fc.constant({ to: 'missing' as const }) },
          )
          .map((parent): Step => ({ id, parent })),
      ),
    ),
  );

/** The ledger's bytes (a hash chain that holds) and, by line, the parent_id each names. */
function ledgerOf(list: Step[]): { bytes: Buffer; parents: (string | null)[] } {
  const header = JSON.stringify({ id: 'h-0000', parent_id: null, ts: 't', prev_hash: null, kind: 'header' });
  const lines = [header];
  const parents: (string | null)[] = [null];
  const written = ['h-0000'];
  for (const s of list) {
    const parent =
      s.parent.to === 'none'
        ? null
        : s.parent.to === 'missing'
          ? 'never-written'
          : written[Math.max(0, written.length - s.parent.k)];
    const prev = hash('sha256', lines[lines.length - 1], 'hex');
    const entry = {
      id: s.id,
      parent_id: parent,
      ts: 't',
      prev_hash: prev,
      kind: 'message',
      message: { role: 'user', content: [] },
    };
    lines.push(JSON.stringify(entry));
    parents.push(parent);
    written.push(s.id);
  }
  return { bytes: Buffer.from(lines.map((l) => l + '\n').join('')), parents };
}

/** What looking every id up gives: accepted ids, their parents' indexes, the warnings' codes by line. */
function model(ids: string[], parents: (string | null)[]): { ids: string[]; parent: number[]; warnings: string[] } {
  const at = new Map<string, number>();
  const out = { ids: [] as string[], parent: [] as number[], warnings: [] as string[] };
  ids.forEach((id, k) => {
    const line = k + 1;
    if (at.has(id)) {
      out.warnings.push(`${line} duplicate_id ${id}`);
      return;
    }
    const p = parents[k];
    const parent = p === null ? NO_PARENT : (at.get(p) ?? ORPHAN);
    if (parent === ORPHAN) out.warnings.push(`${line} orphan ${id}`);
    at.set(id, out.ids.length);
    out.ids.push(id);
    out.parent.push(parent);
  });
  return out;
}

function readingOf(l: Ledger): { ids: string[]; parent: number[]; warnings: string[] } {
  const ix = l.index;
  return {
    ids: ix.ids.slice(0, ix.count),
    parent: Array.from(ix.parent.subarray(0, ix.count)),
    warnings: l.warnings().map((w) => `${w.line} ${w.code} ${w.id}`),
  };
}

describe('repeats and parents told without the id map (a first read looks no id up)', () => {
  it('reports what looking every id up reports, whether the ids increase or not', () => {
    fc.assert(
      fc.property(steps, (list) => {
        const { bytes, parents } = ledgerOf(list);
        const file = join(tmp(), 's.jsonl');
        writeFileSync(file, bytes);
        const l = Ledger.openSync(file);
        try {
          expect(readingOf(l)).toEqual(model(['h-0000', ...list.map((s) => s.id)], parents));
          for (let i = 0; i < l.index.count; i++) expect(l.indexOf(l.index.ids[i])).toBe(i);
          expect(l.indexOf('never-written')).toBeUndefined();
        } finally {
          l.close();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads on from a kept index as a whole read does (repeats of kept ids across the cut)', async () => {
    await fc.assert(
      fc.asyncProperty(steps, fc.nat(), async (list, at) => {
        const { bytes } = ledgerOf(list);
        const ends = [...bytes.keys()].filter((k) => bytes[k] === 10).map((k) => k + 1);
        const cut = ends[at % ends.length];
        const file = join(tmp(), 's.jsonl');
        writeFileSync(file, bytes.subarray(0, cut));
        const first = Ledger.openSync(file);
        const snap = first.snapshot();
        first.close();
        if (snap === null) return;
        const kept = decodeSnapshot(encodeSnapshot(snap, { realPath: file, dev: 1, ino: 2 })).snapshot;
        appendFileSync(file, bytes.subarray(cut));
        const source = new FileSource(file);
        expect(snapshotMismatch(source, kept)).toBeNull();
        const resumed = await Ledger.resume(source, kept);
        const whole = Ledger.openSync(file);
        try {
          expect(readerReport(resumed)).toEqual(readerReport(whole));
          expect(readingOf(resumed)).toEqual(readingOf(whole));
        } finally {
          resumed.close();
          whole.close();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a first leaf on a resumed index whose ids do not increase maps none (its turns shaped from their lines)', async () => {
    // A user directive and an assistant answer, 40 times, ids in no order.
    const ids = Array.from({ length: 80 }, (_, k) => `id-${String((k * 37) % 80).padStart(2, '0')}`);
    const lines: string[] = [JSON.stringify({ id: 'h', parent_id: null, ts: 't', prev_hash: null, kind: 'header' })];
    ids.forEach((id, k) => {
      const role = k % 2 === 0 ? 'user' : 'assistant';
      const parent = k === 0 ? 'h' : ids[k - 1];
      const prev = hash('sha256', lines[lines.length - 1], 'hex');
      const message = { role, content: [{ type: 'text', text: `${role} ${k}` }] };
      lines.push(JSON.stringify({ id, parent_id: parent, ts: 't', prev_hash: prev, kind: 'message', message }));
    });
    const file = join(tmp(), 's.jsonl');
    writeFileSync(file, lines.map((l) => l + '\n').join(''));
    const whole = Ledger.openSync(file);
    const snap = whole.snapshot();
    if (snap === null) throw new Error('nothing kept');
    const kept = decodeSnapshot(encodeSnapshot(snap, { realPath: file, dev: 1, ino: 2 })).snapshot;
    const resumed = await Ledger.resume(new FileSource(file), kept);
    try {
      expect(resumed.index.unmappedIds).toBe(81);
      const opts = { plan: 'none', profile: DEFAULT_PROFILE } as const;
      const got = planLeaf(resumed, resumed.index.activeLeaf, opts);
      expect(turnCacheOf(resumed).stats.turnsProjected).toBeGreaterThan(30);
      expect(resumed.index.mappedIds).toBe(0);
      expect(got.messages(0, got.messageCount)).toEqual(project(whole, whole.index.activeLeaf, opts).messages);
    } finally {
      resumed.close();
      whole.close();
    }
  });

  it('looks no id up while reading a session whose ids increase, each entry the child of a recent one', () => {
    const list: Step[] = Array.from({ length: 500 }, (_, k) => ({
      id: `id-${String(k + 1).padStart(4, '0')}`,
      parent: { to: 'back', k: 1 + (k % 3) },
    }));
    const file = join(tmp(), 's.jsonl');
    writeFileSync(file, ledgerOf(list).bytes);
    const l = Ledger.openSync(file);
    try {
      expect(l.index.count).toBe(501);
      expect(l.warnings()).toEqual([]);
      for (let i = 0; i < l.index.count; i++) expect(l.indexOf(l.index.ids[i])).toBe(i);
      expect(l.indexOf('id-0250x')).toBeUndefined();
      expect(l.index.mappedIds).toBe(0); // (searched: no map was made)
      expect(l.index.unmappedIds).toBe(0);
    } finally {
      l.close();
    }
  });
});
