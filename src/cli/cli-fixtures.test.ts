import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureCases, FIXTURES, withoutMessages } from '../test-support/fixtures';
import { runCli } from './cli';

/** The package's command: the built CLI (the vitest global setup builds it when stale). */
const BIN = resolve(import.meta.dirname, '../../bin/vak-explorer.mjs');

/** The command's code in this process (fast for the many fixture cases); the real process is tested below. */
async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

function projectArgv(
  file: string,
  a: { leaf: string | null; plan: string; window: number; reserve: number; bytes_per_token: number },
): string[] {
  const argv = ['project', file];
  if (a.leaf !== null) argv.push('--leaf', a.leaf);
  argv.push('--plan', a.plan, '--window', String(a.window), '--reserve', String(a.reserve));
  argv.push('--bytes-per-token', String(a.bytes_per_token), '--json');
  return argv;
}

describe('every ../shared/fixtures case through the CLI, exactly', () => {
  for (const c of fixtureCases()) {
    describe(c.name, () => {
      it('verify --json', async () => {
        const r = await cli(['verify', c.file, '--json']);
        const got = JSON.parse(r.out);
        expect(withoutMessages(got)).toEqual(withoutMessages(c.expected.verify as never));
        expect(r.code).toBe(c.expected.verify.warnings.length === 0 ? 0 : 1);
        for (const w of got.warnings) expect(typeof w.message).toBe('string');
      });
      if (c.expected.tree !== null) {
        it('tree --json', async () => {
          const r = await cli(['tree', c.file, '--json']);
          expect(JSON.parse(r.out)).toEqual(c.expected.tree);
        });
      }
      c.expected.projections.forEach((p, k) => {
        it(`project #${k} ${JSON.stringify(p.args)}`, async () => {
          const r = await cli(projectArgv(c.file, p.args));
          expect(r.err).toBe('');
          expect(r.code).toBe(0);
          expect(JSON.parse(r.out)).toEqual(p.output);
        });
      });
    });
  }
});

describe('demo home: verify --json of each file', () => {
  const expected = JSON.parse(readFileSync(join(FIXTURES, 'demo-home.verify.json'), 'utf8')) as Record<string, unknown>;
  for (const [rel, want] of Object.entries(expected)) {
    it(rel, async () => {
      const r = await cli(['verify', join(FIXTURES, 'demo-home', rel), '--json']);
      expect(JSON.parse(r.out)).toEqual(want);
      expect(r.code).toBe(0);
    });
  }
});

describe('the real command (bin/vak-explorer.mjs → the built dist/cli, plain Node)', () => {
  const [first] = fixtureCases().filter((c) => c.name === 'packets');
  it('project prints the §9 JSON in a real process', () => {
    const p = first.expected.projections[1];
    const out = execFileSync(process.execPath, [BIN, ...projectArgv(first.file, p.args)], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(p.output);
  });
  it('verify exits 1 on a damaged ledger and 2 on a missing file', () => {
    const damaged = spawnSync(process.execPath, [BIN, 'verify', join(FIXTURES, 'damaged.jsonl'), '--json'], {
      encoding: 'utf8',
    });
    expect(damaged.status).toBe(1);
    expect(JSON.parse(damaged.stdout).entries).toBe(9);
    const missing = spawnSync(process.execPath, [BIN, 'verify', join(FIXTURES, 'no-such.jsonl'), '--json'], {
      encoding: 'utf8',
    });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/cannot read/);
  });
  it('an unknown --leaf exits 2 with a message on stderr', () => {
    const r = spawnSync(process.execPath, [BIN, 'project', first.file, '--leaf', 'nope', '--json'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown leaf "nope"/);
  });
});

describe('argument errors', () => {
  it('rejects a bad --plan and a non-numeric --window with exit 2', async () => {
    const file = join(FIXTURES, 'linear.jsonl');
    expect((await cli(['project', file, '--plan', 'max'])).code).toBe(2);
    const r = await cli(['project', file, '--window', 'lots']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--window must be a whole number/);
    expect((await cli(['frobnicate'])).code).toBe(2);
  });
});
