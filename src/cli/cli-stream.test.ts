/**
 * `project --json` and `export` written in pieces: the same bytes as the whole-string text they
 * replace, and a long output within a heap far smaller than the output itself.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSession, LedgerWriter, Rng } from '../generator';
import { Ledger } from '../main/core/ledger';
import { project } from '../main/core/projection';
import { DEFAULT_PROFILE } from '../main/core/tokens';
import { projectionExport } from '../main/export/projection-export';
import { sessionHtmlPieces } from '../main/export/session-html';
import { stringifyJson } from '../shared/json-text';
import type { Json } from '../shared/ledger-types';
import { projectionJson } from '../shared/projection-json';
import { fixtureCases } from '../test-support/fixtures';
import { useTempDir } from '../test-support/temp-dir';
import { runCli } from './cli';

const BIN = resolve(import.meta.dirname, '../../bin/vak-explorer.mjs');

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

/** What `project --json` printed before it streamed: the whole projection as one string. */
function wholeProjectJson(ledger: Ledger, leaf: number, plan: 'none' | 'auto', profile = DEFAULT_PROFILE): string {
  return stringifyJson(projectionJson(project(ledger, leaf, { plan, profile })) as unknown as Json) + '\n';
}

describe('project --json in pieces is byte for byte the whole-string text', () => {
  it('every fixture case', async () => {
    for (const c of fixtureCases()) {
      const ledger = Ledger.openSync(c.file);
      try {
        for (const p of c.expected.projections) {
          const { leaf, plan, window, reserve, bytes_per_token } = p.args;
          const argv = ['project', c.file, '--plan', plan, '--window', String(window), '--reserve', String(reserve)];
          argv.push('--bytes-per-token', String(bytes_per_token), '--json');
          if (leaf !== null) argv.push('--leaf', leaf);
          const r = await cli(argv);
          expect(r.code, `${c.name} ${JSON.stringify(p.args)}`).toBe(0);
          const i = leaf === null ? ledger.index.activeLeaf : (ledger.indexOf(leaf) as number);
          expect(r.out, `${c.name} ${JSON.stringify(p.args)}`).toBe(
            wholeProjectJson(ledger, i, plan, { window, reserve, bytes_per_token }),
          );
        }
      } finally {
        ledger.close();
      }
    }
  });

  const tempDir = useTempDir('vak-cli-stream-');
  it('generated sessions (cards, packets, resets, branches), several leaves, both plans', async () => {
    const dir = tempDir();
    for (const seed of [3, 11]) {
      const file = join(dir, `g${seed}.jsonl`);
      generateSession({ seed, entries: 2500, cwd: '/work', path: file });
      const ledger = Ledger.openSync(file);
      try {
        const ix = ledger.index;
        const leaves = [
          ix.activeLeaf,
          ...Array.from({ length: ix.count }, (_, i) => i)
            .filter((i) => ix.childCount[i] === 0)
            .slice(0, 3),
        ];
        for (const leaf of leaves) {
          for (const plan of ['none', 'auto'] as const) {
            const r = await cli([
              'project',
              file,
              '--leaf',
              ix.ids[leaf],
              '--plan',
              plan,
              '--window',
              '30000',
              '--json',
            ]);
            expect(r.out).toBe(wholeProjectJson(ledger, leaf, plan, { ...DEFAULT_PROFILE, window: 30_000 }));
          }
        }
      } finally {
        ledger.close();
      }
    }
  });
});

/**
 * A session whose projected context is ~48 MB of JSON: 4,000 turns of a 6 KB directive and a
 * 6 KB answer (no tool results to digest, no cards: every byte of text is in the context).
 */
function bigTextSession(path: string): void {
  const w = new LedgerWriter(new Rng(5), Date.UTC(2026, 0, 1), path);
  let parent = w.append('header', null, { system_prompt: 'You are a careful agent.', tools: [], model: 'm' });
  const text = (k: number, who: string): string => `${who} ${k}: ` + 'lorem ipsum dolor sit amet '.repeat(225);
  for (let k = 0; k < 4000; k++) {
    parent = w.append('message', parent, {
      message: { role: 'user', content: [{ type: 'text', text: text(k, 'ask') }] },
    });
    parent = w.append('message', parent, {
      message: { role: 'assistant', content: [{ type: 'text', text: text(k, 'answer') }] },
    });
  }
  w.finish();
}

/** Runs the built command with a small heap, stdout into `outFile`. */
function runSmallHeap(heapMb: number, args: string[], outFile: string): { status: number | null; stderr: string } {
  const fd = openSync(outFile, 'w');
  try {
    const r = spawnSync(process.execPath, [`--max-old-space-size=${heapMb}`, BIN, ...args], {
      stdio: ['ignore', fd, 'pipe'],
      encoding: 'utf8',
    });
    return { status: r.status, stderr: r.stderr };
  } finally {
    closeSync(fd);
  }
}

const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

describe('a long output within a small heap', () => {
  const tempDir = useTempDir('vak-cli-heap-');
  /** Far below the output: the whole text (or its messages as objects) cannot be held. */
  const HEAP_MB = 40;

  it('project --json of a 48 MB context and export --format json run in a 40 MB heap, exactly', async () => {
    const dir = tempDir();
    const file = join(dir, 'big.jsonl');
    bigTextSession(file);
    const ledger = Ledger.openSync(file);
    const whole = wholeProjectJson(ledger, ledger.index.activeLeaf, 'none');
    const wholeExport = projectionExport(
      project(ledger, ledger.index.activeLeaf, { plan: 'none', profile: DEFAULT_PROFILE }),
      'json',
      'big',
    ).text;
    ledger.close();
    expect(whole.length).toBeGreaterThan(46 << 20);

    const out = join(dir, 'project.json');
    const r = runSmallHeap(HEAP_MB, ['project', file, '--plan', 'none', '--json'], out);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(sha(readFileSync(out))).toBe(sha(whole));

    const saved = join(dir, 'export.json');
    const e = runSmallHeap(
      HEAP_MB,
      ['export', file, '--format', 'json', '--plan', 'none', '--out', saved],
      join(dir, 'none'),
    );
    expect(e.stderr).toBe('');
    expect(e.status).toBe(0);
    expect(sha(readFileSync(saved))).toBe(sha(wholeExport));
  }, 240_000);
});

describe('export', () => {
  const tempDir = useTempDir('vak-cli-export-');

  it('writes what the app exports: html, json and markdown, to --out or stdout', async () => {
    const dir = tempDir();
    const file = join(dir, 'sess.jsonl');
    generateSession({ seed: 9, entries: 1200, cwd: '/work', path: file });
    const ledger = Ledger.openSync(file);
    const leaf = ledger.index.activeLeaf;
    const p = project(ledger, leaf, { plan: 'auto', profile: DEFAULT_PROFILE });
    const html = [...sessionHtmlPieces(ledger, leaf, { key: file, sessionId: 'sess' }).pieces].join('');
    ledger.close();
    for (const [format, want] of [
      ['html', html],
      ['json', projectionExport(p, 'json', 'sess').text],
      ['markdown', projectionExport(p, 'markdown', 'sess').text],
    ] as const) {
      const viaStdout = await cli(['export', file, '--format', format]);
      expect(viaStdout.err).toBe('');
      expect(viaStdout.code).toBe(0);
      expect(viaStdout.out).toBe(want);
      const to = join(dir, `out.${format}`);
      const viaFile = await cli(['export', file, '--format', format, '--out', to]);
      expect(viaFile.code).toBe(0);
      expect(viaFile.out).toBe('');
      expect(readFileSync(to, 'utf8')).toBe(want);
    }
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('refuses a missing or unknown --format, and options that do not apply to html (exit 2)', async () => {
    const dir = tempDir();
    const file = join(dir, 's.jsonl');
    generateSession({ seed: 1, entries: 50, cwd: '/w', path: file });
    for (const argv of [
      ['export', file],
      ['export', file, '--format', 'pdf'],
      ['export', file, '--format', 'html', '--plan', 'none'],
    ]) {
      const r = await cli(argv);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/--format|apply to json/);
      expect(r.out).toBe('');
    }
    const unknownLeaf = await cli(['export', file, '--format', 'json', '--leaf', 'nope']);
    expect(unknownLeaf.code).toBe(2);
    expect(unknownLeaf.err).toMatch(/unknown leaf "nope"/);
  });

  it('an --out it cannot write exits 2 naming it, and leaves no file behind', async () => {
    const dir = tempDir();
    const file = join(dir, 's.jsonl');
    generateSession({ seed: 1, entries: 50, cwd: '/w', path: file });
    const to = join(dir, 'no-such-dir', 'x.html');
    const r = await cli(['export', file, '--format', 'html', '--out', to]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`cannot write ${to}: ENOENT`);
    expect(existsSync(`${to}.partial`)).toBe(false);
  });

  it('an --out that is a device is written in place, never replaced: /dev/full exits 2 and stays a device', async () => {
    const dir = tempDir();
    const file = join(dir, 's.jsonl');
    generateSession({ seed: 1, entries: 50, cwd: '/w', path: file });
    const r = await cli(['export', file, '--format', 'markdown', '--out', '/dev/full']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('cannot write /dev/full: ENOSPC');
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
    expect(existsSync('/dev/full.partial')).toBe(false);
  });
});
