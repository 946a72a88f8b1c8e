/**
 * Hostile files, clients and unlucky users against the real `vak-explorer` process and the
 * real serve mode, on real files: a stdout that fails after a branch was written, a reader
 * that stops early, numbers that are not plain digits, a home that is not there, a link
 * loop, a price file that leads to a secret, and a model named `__proto__`.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BranchResult, SessionSummary } from '../shared/api';
import type { PriceTable } from '../shared/api-features';
import { ExplorerBackend } from '../main/api/explorer-backend';
import { Ledger } from '../main/core/ledger';
import { priceOf } from '../main/cost/price-table';
import { sessionCost } from '../main/cost/session-cost';
import { openSocket, rpc, signIn, type WsOutcome } from '../main/server/testing/http-helpers';
import { FIXTURES } from '../test-support/fixtures';
import { startServeChild, type ServeChild } from '../test-support/serve-child-process';
import { useTempDir } from '../test-support/temp-dir';
import { assistantMsg, ledgerBytes, userMsg } from './ledger-lines';

const BIN = resolve(import.meta.dirname, '../../bin/vak-explorer.mjs');
const LINEAR = join(FIXTURES, 'linear.jsonl');
const NO_STACK = /\n\s+at /;
const tempDir = useTempDir('vak-cli-attacks-');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], stdout: 'pipe' | number = 'pipe'): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', stdout, 'pipe'],
    timeout: 60_000,
    maxBuffer: 1 << 30,
  });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr };
}

const lineCount = (file: string): number => readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
const activeLeaf = (file: string): string =>
  (JSON.parse(run(['verify', file, '--json']).stdout) as { active_leaf: string }).active_leaf;

describe('a stdout that fails', () => {
  it('branch >/dev/full appends exactly once, exits 0 and names the id on stderr', () => {
    const file = join(tempDir(), 's.jsonl');
    copyFileSync(LINEAR, file);
    const before = lineCount(file);
    const full = openSync('/dev/full', 'w');
    let r: Run;
    try {
      r = run(['branch', file, '--at', activeLeaf(file), '--text', 'once'], full);
    } finally {
      closeSync(full);
    }
    expect(r.stderr).not.toMatch(NO_STACK);
    expect(r.status).toBe(0);
    expect(lineCount(file)).toBe(before + 1);
    const appended = JSON.parse(readFileSync(file, 'utf8').trimEnd().split('\n').at(-1)!) as { id: string };
    expect(r.stderr).toContain(appended.id);
    expect(r.stderr).toMatch(/ENOSPC/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('tree >/dev/full ends with one line on stderr and exit 2, no stack', () => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = run(['tree', LINEAR], full);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^vak-explorer: cannot write the output to stdout \(ENOSPC: no space left on device\)/);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    } finally {
      closeSync(full);
    }
  });

  it('`verify DAMAGED | head -c1` keeps the warnings exit code, quietly', () => {
    const dir = tempDir();
    const file = join(dir, 'damaged.jsonl');
    copyFileSync(LINEAR, file);
    // Enough warnings that verify's output outgrows the pipe and meets the closed end.
    appendFileSync(file, 'not json\n'.repeat(30_000));
    const alone = run(['verify', file]);
    expect(alone.status).toBe(1);
    expect(alone.stdout.length).toBeGreaterThan(1 << 20);
    for (const json of [[], ['--json']]) {
      const sh = spawnSync(
        'bash',
        [
          '-c',
          'set -o pipefail; "$0" "$1" verify "$2" $4 2>"$3" | head -c1 >/dev/null',
          process.execPath,
          BIN,
          file,
          join(dir, 'err'),
          ...json,
        ],
        { encoding: 'utf8', timeout: 60_000 },
      );
      expect(sh.status).toBe(alone.status);
      expect(readFileSync(join(dir, 'err'), 'utf8')).toBe('');
    }
  });
});

describe('numbers are plain decimal digits', () => {
  it.each([
    ['project', '--window', '0x10'],
    ['project', '--window', '1e3'],
    ['project', '--window', '+5'],
    ['project', '--window', ' 5'],
    ['project', '--reserve', '5.0'],
    ['project', '--bytes-per-token', '0b11'],
    ['project', '--window', '99999999999999999999'],
    ['serve', '--port', '0x10'],
    ['serve', '--port', '8e3'],
    ['serve', '--port', '65536'],
  ])('%s %s %j is refused, naming the flag', (command, flag, value) => {
    const r = run(
      command === 'serve' ? ['serve', `${flag}=${value}`, '--no-open'] : [command, LINEAR, `${flag}=${value}`],
    );
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${flag} must be a whole number`);
    expect(r.stderr).toContain(JSON.stringify(value));
    expect(r.stderr).not.toMatch(NO_STACK);
  });

  it('plain digits still work', () => {
    const r = run(['project', LINEAR, '--window', '200000', '--reserve', '016000', '--json']);
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { tokens: { available: number } }).tokens.available).toBeGreaterThan(0);
  });
});

describe('serve --home that is not there', () => {
  it('exits non-zero with the reason and serves nothing (no demo in its place)', () => {
    const dir = tempDir();
    symlinkSync('loop', join(dir, 'loop'));
    for (const [home, problem] of [
      [join(dir, 'nonexistent'), 'does not exist'],
      [join(dir, 'loop'), 'is a symbolic link loop (ELOOP'],
    ]) {
      const r = run(['serve', '--home', home, '--port', '0', '--no-open']);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe(''); // no "serving … at http://…" line
      expect(r.stderr).toContain(`--home ${home} ${problem}`);
      expect(r.stderr).toContain('nothing is served');
      expect(r.stderr).not.toMatch(NO_STACK);
    }
  });
});

const DIR = 'agents/vak/sessions/0000000000000000';
const REGULAR = `${DIR}/01a22688-5a80-7d3d-a60d-53f7388101d1.jsonl`;
const LOOP = `${DIR}/01a22688-5a80-7d3d-a60d-00000000100b.jsonl`;
const LOOP_DIR = 'agents/vak/sessions/1111111111111111';
const IN_LOOP_DIR = `${LOOP_DIR}/01a22688-5a80-7d3d-a60d-00000000100c.jsonl`;

describe('serve mode (a real process)', () => {
  let serve: ServeChild | null = null;
  afterEach(() => {
    if (serve && serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
    serve = null;
  });

  async function socket(s: ServeChild): Promise<NonNullable<WsOutcome['ws']>> {
    const r = await openSocket(s.port, { cookie: await signIn(s.port, s.token) });
    if (!r.ws) throw new Error(`socket refused: ${r.status}`);
    return r.ws;
  }

  function home(): string {
    const h = join(tempDir(), 'home');
    mkdirSync(join(h, DIR), { recursive: true });
    copyFileSync(LINEAR, join(h, REGULAR));
    return h;
  }

  it('a session file or a folder that is a link loop is refused, with ELOOP named, and serving goes on', async () => {
    const h = home();
    symlinkSync(join(h, LOOP), join(h, LOOP)); // a link to itself
    mkdirSync(join(h, 'agents/vak/sessions'), { recursive: true });
    symlinkSync(join(h, LOOP_DIR), join(h, LOOP_DIR));
    serve = await startServeChild(h);
    const api = rpc(await socket(serve));
    const rows = await api.call('listSessions', {});
    expect(rows.ok).toBe(true);
    const row = (rows.ok ? (rows.res as SessionSummary[]) : []).find((s) => s.key === LOOP);
    expect(row?.unreadable).toMatch(/symbolic link loop \(ELOOP/);
    for (const key of [LOOP, IN_LOOP_DIR]) {
      for (const [method, req] of [
        ['openSession', { key }],
        ['getLine', { key, offset: 0 }],
        ['branch', { key, parentId: 'x', text: 'hi', idempotencyKey: randomUUID() }],
      ] as const) {
        const r = await api.call(method, req);
        expect(r.ok ? null : r.error, `${method} ${key}`).toEqual({
          code: 'refused',
          message: expect.stringMatching(/symbolic link loop \(ELOOP: too many levels of symbolic links\)/) as string,
        });
      }
    }
    const ok = await api.call('openSession', { key: REGULAR });
    expect(ok.ok).toBe(true);
  });

  it('prices over the socket: a model named __proto__ arrives; a linked secret does not', async () => {
    const dir = tempDir();
    const data = join(dir, 'xdg', 'vak-explorer');
    mkdirSync(data, { recursive: true });
    const price = { input: 1, output: 2, cache_read: 0, cache_write: 0 };
    writeFileSync(join(dir, 'good.json'), `{"models": {"__proto__": ${JSON.stringify(price)}}}`);
    writeFileSync(join(dir, 'shadow'), 'root:*:20210:0:99999:7:::\n');
    symlinkSync(join(dir, 'good.json'), join(data, 'prices.json'));
    const saved = process.env['XDG_DATA_HOME'];
    process.env['XDG_DATA_HOME'] = join(dir, 'xdg'); // serve keeps prices.json in $XDG_DATA_HOME/vak-explorer
    try {
      serve = await startServeChild(home());
    } finally {
      if (saved === undefined) delete process.env['XDG_DATA_HOME'];
      else process.env['XDG_DATA_HOME'] = saved;
    }
    const api = rpc(await socket(serve));
    const good = await api.call('getPriceTable', {});
    expect(good.ok && (good.res as PriceTable)).toMatchObject({ source: 'user', errors: [] });
    expect(good.ok && Object.getOwnPropertyDescriptor((good.res as PriceTable).models, '__proto__')?.value).toEqual(
      price,
    );
    rmSync(join(data, 'prices.json'));
    symlinkSync(join(dir, 'shadow'), join(data, 'prices.json'));
    const bad = await api.call('getPriceTable', {});
    expect(bad.ok && (bad.res as PriceTable).errors).toEqual([
      `${join(data, 'prices.json')}: not valid JSON: line 1, column 1: a value was expected here`,
    ]);
    expect(JSON.stringify(bad)).not.toContain('root');
  });

  it('idempotency keys are compared as sent: two spellings of one UUID are two keys; one key twice appends once', async () => {
    const h = home();
    serve = await startServeChild(h);
    const api = rpc(await socket(serve));
    const file = join(h, REGULAR);
    const before = lineCount(file);
    const lower = randomUUID();
    const branch = async (idempotencyKey: string): Promise<BranchResult> => {
      const r = await api.call('branch', { key: REGULAR, parentId: 'e0021', text: 'same text', idempotencyKey });
      if (!r.ok) throw new Error(r.error.message);
      return r.res as BranchResult;
    };
    const a = await branch(lower);
    const again = await branch(lower);
    expect(again.id).toBe(a.id);
    expect(lineCount(file)).toBe(before + 1);
    const upper = await branch(lower.toUpperCase());
    expect(upper.id).not.toBe(a.id);
    expect(lineCount(file)).toBe(before + 2);
  });
});

describe('prices.json', () => {
  const SECRET = 'root:$6$Zq9saltsalt$hashhashhashhash:20210:0:99999:7:::';
  let backend: ExplorerBackend | null = null;
  afterEach(async () => {
    await backend?.close();
    backend = null;
  });

  async function priceTable(dataDir: string): Promise<PriceTable> {
    const h = join(tempDir(), 'home');
    mkdirSync(h);
    backend = await ExplorerBackend.create({
      home: h,
      isDemo: false,
      label: 't',
      watch: false,
      lockPollMs: 0,
      userDataDir: dataDir,
    });
    return (await backend.call('getPriceTable', {}, { id: 'c', push: () => undefined })) as PriceTable;
  }

  it.each([
    ['a shadow file', `${SECRET}\nbin:*:20210:0:99999:7:::\n`],
    ['JSON whose names are secrets', JSON.stringify({ [SECRET]: 1, models: { [SECRET]: { input: SECRET } } })],
    ['JSON cut in a secret string', `{"models": {"m": "${SECRET}`],
  ])('linked to %s: the error names the file and the problem, never its content', async (_, content) => {
    const dir = tempDir();
    const secretFile = join(dir, 'secret');
    writeFileSync(secretFile, content);
    const data = join(dir, 'data');
    mkdirSync(data);
    symlinkSync(secretFile, join(data, 'prices.json'));
    const t = await priceTable(data);
    expect(t.source).toBe('bundled');
    expect(t.errors.length).toBeGreaterThan(0);
    for (const e of t.errors) expect(e.startsWith(`${join(data, 'prices.json')}: `)).toBe(true);
    const said = JSON.stringify(t.errors);
    for (const piece of ['root', 'Zq9', 'salt', 'hash', '20210', 'bin:']) expect(said).not.toContain(piece);
  });

  it('says where JSON breaks, by line and column', async () => {
    const data = tempDir();
    writeFileSync(join(data, 'prices.json'), '{\n  "models": {\n    "m": {"input": 1,}\n  }\n}\n');
    expect((await priceTable(data)).errors).toEqual([
      `${join(data, 'prices.json')}: not valid JSON: line 3, column 22: a member name in double quotes was expected here`,
    ]);
  });

  it('a model named __proto__ is kept and priced', async () => {
    const dir = tempDir();
    const price = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
    writeFileSync(
      join(dir, 'prices.json'),
      `{"models": {"__proto__": ${JSON.stringify(price)}, "constructor": ${JSON.stringify(price)}}}`,
    );
    const t = await priceTable(dir);
    expect(t.errors).toEqual([]);
    expect(t.source).toBe('user');
    expect(Object.keys(t.models).sort()).toEqual(['__proto__', 'constructor']);
    expect(priceOf(t, '__proto__')).toEqual(price);
    expect(priceOf(t, 'toString')).toBeNull();

    const file = join(dir, 's.jsonl');
    writeFileSync(
      file,
      ledgerBytes([
        { id: 'h', parent_id: null, kind: 'header', model: '__proto__', system_prompt: 's', tools: [] },
        { id: 'u', parent_id: 'h', kind: 'message', message: userMsg('go') },
        {
          id: 'a',
          parent_id: 'u',
          kind: 'message',
          message: assistantMsg('ok'),
          meta: { usage: { input_tokens: 1_000_000, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 } },
        },
      ]),
    );
    const ledger = Ledger.openSync(file);
    try {
      const c = sessionCost(ledger, ledger.index.activeLeaf, t);
      expect(c.chain.messages.byModel).toEqual([expect.objectContaining({ model: '__proto__', usd: 3 }) as unknown]);
    } finally {
      ledger.close();
    }
  });
});
