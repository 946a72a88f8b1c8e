import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ProjectedSearchRequest } from '../../shared/api-features';
import { fixtureCases } from '../../test-support/fixtures';
import { Ledger } from '../core/ledger';
import { projectedSearchOf } from './entry-fate-handler';
import { atOnce } from '../core/cancel';

const packets = Ledger.fromBytes(readFileSync(fixtureCases().find((c) => c.name === 'packets')!.file));
const req = (query: string, across: 'leaf' | 'turn-ends', window = 900): ProjectedSearchRequest => ({
  key: 'k',
  leaf: null,
  plan: 'auto',
  profile: { window, reserve: 0, bytes_per_token: 4 },
  query,
  across,
  limit: 50,
});

describe('search in the projected context', () => {
  it('across turn ends: names the turn ends and the fidelity in which the text was sent, and when it stopped', () => {
    const r = atOnce(projectedSearchOf(packets, packets.index.activeLeaf, req('RUN THE LEDGER tests', 'turn-ends')));
    expect(r.turnEnds).toBe(7);
    // The directive of turn 1 is sent at Full until packet e0027 replaces turns 1–3 (whose summary does not say it).
    expect(r.hits.map((h) => [h.entry, h.fidelity, h.fromTurn, h.toTurn])).toEqual([['e0002', 'full', 1, 4]]);
    expect(r.lastSent).toBe(4);
    expect(r.hits[0].snippet).toContain('Run the ledger tests');
  });

  it('finds a packet summary from the turn end where the plan uses it', () => {
    const r = atOnce(projectedSearchOf(packets, packets.index.activeLeaf, req('torn-tail test', 'turn-ends')));
    expect(r.hits.map((h) => [h.entry, h.fidelity, h.fromTurn, h.toTurn])).toEqual([['e0027', 'packet', 5, 7]]);
  });

  it('at the leaf: only what this projection sends, with its message index', () => {
    const at = atOnce(projectedSearchOf(packets, packets.index.activeLeaf, req('torn-tail test', 'leaf')));
    expect(at.hits.map((h) => [h.entry, h.fidelity])).toEqual([['e0027', 'packet']]);
    expect(at.hits[0].message).toBeGreaterThanOrEqual(0);
    const none = atOnce(projectedSearchOf(packets, packets.index.activeLeaf, req('Run the ledger tests', 'leaf')));
    expect(none.hits).toEqual([]);
    const wide = atOnce(
      projectedSearchOf(packets, packets.index.activeLeaf, req('Run the ledger tests', 'leaf', 200000)),
    );
    expect(wide.hits.map((h) => [h.entry, h.fidelity])).toEqual([['e0002', 'full']]);
  });

  it('never reports text the model was not sent (a thinking block, an audit entry)', () => {
    const r = atOnce(projectedSearchOf(packets, packets.index.activeLeaf, req('claude-haiku-4-5', 'turn-ends')));
    expect(r.hits).toEqual([]);
    expect(r.firstSent).toBeNull();
  });
});
