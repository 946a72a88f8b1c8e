import { describe, expect, it } from 'vitest';
import { fixtureCases } from '../test-support/fixtures';
import { runCli } from './cli';

const file = fixtureCases().find((c) => c.name === 'packets')!.file;

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

describe('vak-explorer fate', () => {
  it('prints one row per turn end with --json, under the plan and profile flags', async () => {
    const r = await cli(['fate', file, '--entry', 'e0003', '--window', '900', '--reserve', '0', '--json']);
    expect(r.code).toBe(0);
    const fate = JSON.parse(r.out);
    expect(fate.rows.map((x: { turn: number; fidelity: string }) => [x.turn, x.fidelity])).toEqual([
      [1, 'full'],
      [2, 'full'],
      [3, 'full'],
      [4, 'full'],
      [5, 'packet'],
      [6, 'packet'],
      [7, 'packet'],
    ]);
    expect(fate.rows[4].packet).toEqual({ id: 'e0027', first: 1, last: 3 });
    expect(fate.change.reason).toMatch(/^from turn 5 on, packet e0027 replaced turns 1–3 because/);
    const none = JSON.parse(
      (await cli(['fate', file, '--entry', 'e0003', '--plan', 'none', '--window', '900', '--json'])).out,
    );
    expect(none.change).toBeNull();
  });

  it('prints the rows and the reason as text, and refuses a missing or unknown entry (exit 2)', async () => {
    const r = await cli(['fate', file, '--entry', 'e0003', '--window', '900', '--reserve', '0']);
    expect(r.out).toMatch(/^turn {5}5 {2}e0027 {2}packet/m);
    expect(r.out.trim().split('\n').at(-1)).toMatch(/^from turn 5 on/);
    expect((await cli(['fate', file])).code).toBe(2);
    const bad = await cli(['fate', file, '--entry', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(file);
  });

  it('sent: the turn ends and fidelity in which a text was sent, or at the leaf', async () => {
    const r = await cli([
      'sent',
      file,
      '--text',
      'run the LEDGER tests',
      '--window',
      '900',
      '--reserve',
      '0',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const found = JSON.parse(r.out);
    expect(
      found.hits.map((h: { entry: string; fidelity: string; fromTurn: number; toTurn: number }) => [
        h.entry,
        h.fidelity,
        h.fromTurn,
        h.toTurn,
      ]),
    ).toEqual([['e0002', 'full', 1, 4]]);
    const text = await cli(['sent', file, '--text', 'run the ledger tests', '--window', '900', '--reserve', '0']);
    expect(text.out.trim().split('\n').at(-1)).toBe('sent from turn 1 to turn 4 of 7');
    const leaf = await cli([
      'sent',
      file,
      '--text',
      'run the ledger tests',
      '--at-leaf',
      '--window',
      '900',
      '--reserve',
      '0',
    ]);
    expect(leaf.out).toBe('not sent at this leaf\n');
    expect((await cli(['sent', file])).code).toBe(2);
  });
});
