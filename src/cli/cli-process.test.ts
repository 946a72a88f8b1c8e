/**
 * The real `vak-explorer` command as a process: strict options, a reader
 * that stops early, and long directives from a file or stdin.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSession } from '../generator';
import { FIXTURES } from '../test-support/fixtures';
import { useTempDir } from '../test-support/temp-dir';

const BIN = resolve(import.meta.dirname, '../../bin/vak-explorer.mjs');
const LINEAR = join(FIXTURES, 'linear.jsonl');

function run(args: string[], input?: string | Buffer): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', input, maxBuffer: 1 << 30 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function lastLine(file: string): { id: string; parent_id: string; message: { content: { text: string }[] } } {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  return JSON.parse(lines[lines.length - 1]) as ReturnType<typeof lastLine>;
}

describe('unknown options and missing values exit 2, naming the option', () => {
  it.each([
    [['project', LINEAR, '--widnow', '10'], /project: unknown option --widnow/],
    [['project', LINEAR, '--window'], /project: --window needs a value/],
    [['project', LINEAR, '--window', '-5'], /--window=VALUE/],
    [['verify', LINEAR, '--json=yes'], /verify: --json takes no value/],
    [['tree', LINEAR, '-x'], /tree: unknown option -x/],
    [['branch', LINEAR, '--at'], /branch: --at needs a value/],
    [['serve', '--bind', '0.0.0.0'], /serve: unknown option --bind/],
  ])('%j', (args, message) => {
    const r = run(args);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /); // a usage line, not a stack trace
  });
});

describe('a reader that stops early', () => {
  const tempDir = useTempDir('vak-cli-pipe-');
  it('`tree BIG --json | head -c 100` ends quietly: exit 0, nothing on stderr', () => {
    const dir = tempDir();
    const file = join(dir, 'big.jsonl');
    generateSession({ seed: 7, entries: 10_000, cwd: '/work', path: file, bigLines: false });
    // Far more than a pipe buffer holds, so the writer does meet the closed pipe.
    expect(run(['tree', file, '--json']).stdout.length).toBeGreaterThan(1 << 20);
    const sh = spawnSync(
      'bash',
      [
        '-c',
        'set -o pipefail; "$0" "$1" tree "$2" --json 2>"$3" | head -c 100 >/dev/null',
        process.execPath,
        BIN,
        file,
        join(dir, 'err'),
      ],
      { encoding: 'utf8' },
    );
    expect(sh.status).toBe(0);
    expect(readFileSync(join(dir, 'err'), 'utf8')).toBe('');
  });
});

describe('branch --text-file', () => {
  const tempDir = useTempDir('vak-cli-branch-');
  /** A directive longer than one argument may be (Linux: 128 KiB), with non-ASCII text. */
  const long = 'Refactor the reader — keep every byte. '.repeat(7700); // ≈ 300 KB

  it('reads a 300 KB directive from stdin (`--text-file -`) and appends it once, exactly', () => {
    const file = join(tempDir(), 's.jsonl');
    copyFileSync(LINEAR, file);
    const before = readFileSync(file).length;
    expect(Buffer.byteLength(long)).toBeGreaterThan(300_000);
    const leaf = (JSON.parse(run(['verify', file, '--json']).stdout) as { active_leaf: string }).active_leaf;
    const r = run(['branch', file, '--at', leaf, '--text-file', '-', '--json'], long + '\n');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const appended = lastLine(file);
    expect(appended.id).toBe((JSON.parse(r.stdout) as { id: string }).id);
    expect(appended.parent_id).toBe(leaf);
    expect(appended.message.content[0].text).toBe(long); // the trailing newline of the input is not part of it
    expect(readFileSync(file).length).toBeGreaterThan(before + 300_000);
    expect(run(['verify', file, '--json']).status).toBe(0);
  });

  it('reads it from a named file', () => {
    const dir = tempDir();
    const file = join(dir, 's.jsonl');
    copyFileSync(LINEAR, file);
    writeFileSync(join(dir, 'directive.txt'), 'Line one.\nLine two.\n');
    const leaf = (JSON.parse(run(['verify', file, '--json']).stdout) as { active_leaf: string }).active_leaf;
    const r = run(['branch', file, '--at', leaf, '--text-file', join(dir, 'directive.txt')]);
    expect(r.status).toBe(0);
    expect(lastLine(file).message.content[0].text).toBe('Line one.\nLine two.');
  });

  it('refuses --text with --text-file, a missing file and invalid UTF-8, writing nothing', () => {
    const dir = tempDir();
    const file = join(dir, 's.jsonl');
    copyFileSync(LINEAR, file);
    const bytes = readFileSync(file);
    const leaf = (JSON.parse(run(['verify', file, '--json']).stdout) as { active_leaf: string }).active_leaf;
    const both = run(['branch', file, '--at', leaf, '--text', 'a', '--text-file', '-'], 'b');
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/not both/);
    const missing = run(['branch', file, '--at', leaf, '--text-file', join(dir, 'nope.txt')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*nope\.txt/);
    const bad = run(['branch', file, '--at', leaf, '--text-file', '-'], Buffer.from([0x68, 0xff, 0x69]));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/not valid UTF-8/);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });
});
