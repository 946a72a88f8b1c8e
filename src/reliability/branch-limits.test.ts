/**
 * The branch directive has a size cap (MAX_DIRECTIVE_BYTES), and the agent's lock covers only the
 * branch's checks and its write: a huge `--text-file` is refused before anything is read whole or
 * locked, and a directive at the cap is written with the read-back after the lock is released.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, type ApiClient } from '../main/api/api-backend';
import { ExplorerBackend } from '../main/api/explorer-backend';
import { appendBranch, BranchError, MAX_DIRECTIVE_BYTES, type BranchLockStats } from '../main/core/branch-append';
import { Ledger } from '../main/core/ledger';
import { useTempDir } from '../test-support/temp-dir';
import { cliInProcess } from './cli-run';
import { ledgerBytes, userMsg } from './ledger-lines';
import { header, sessionKey, writeSession } from './temp-home';

const tmp = useTempDir('vak-branch-limits-');
const backends: ExplorerBackend[] = [];
afterEach(async () => {
  for (const b of backends.splice(0)) await b.close();
});

function smallLedger(dir: string): string {
  const file = join(dir, 's.jsonl');
  writeFileSync(file, ledgerBytes([header(), { id: 'd1', parent_id: 'h', kind: 'message', message: userMsg('go') }]));
  return file;
}

const client: ApiClient = { id: 'c', push: () => undefined };

describe('the branch directive is capped, and built before the lock', () => {
  it('is 1 MiB', () => {
    expect(MAX_DIRECTIVE_BYTES).toBe(1024 * 1024);
  });

  it('the CLI refuses a --text-file past the cap (a sparse 64 MiB file) and writes nothing', async () => {
    const dir = tmp();
    const file = smallLedger(dir);
    const before = readFileSync(file);
    const big = join(dir, 'directive.txt');
    writeFileSync(big, '');
    truncateSync(big, 64 << 20);
    const r = await cliInProcess(['branch', file, '--at', 'd1', '--text-file', big]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`larger than ${MAX_DIRECTIVE_BYTES} bytes`));
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('counts UTF-8 bytes: at the cap it is written, one byte past it is refused', async () => {
    const dir = tmp();
    const file = smallLedger(dir);
    const atCap = 'é'.repeat(MAX_DIRECTIVE_BYTES / 2); // 2 bytes each
    const ledger = await Ledger.open(file);
    try {
      const before = readFileSync(file);
      const e = await appendBranch(ledger, 'd1', atCap + 'a').then(
        () => null,
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(BranchError);
      expect((e as BranchError).reason).toBe('too_large');
      expect(readFileSync(file).equals(before)).toBe(true);

      // At the cap: written; under the lock only the proofs are read (a few lines), never the
      // directive: the line is made before the lock and read back after it.
      const stats: BranchLockStats = { bytesReadUnderLock: 0, lockHeldMs: 0, attempts: 0 };
      const r = await appendBranch(ledger, 'd1', atCap, { stats });
      expect(stats.bytesReadUnderLock).toBeLessThan(4096);
      const written = Ledger.openSync(file);
      expect(written.index.ids[written.index.activeLeaf]).toBe(r.id);
      expect(written.warnings()).toEqual([]);
      written.close();
    } finally {
      ledger.close();
    }
  });

  it('the API answers too_large for a directive the schema lets through (1M characters, 2 MB)', async () => {
    const home = tmp();
    const file = writeSession(
      home,
      ledgerBytes([header(), { id: 'd1', parent_id: 'h', kind: 'message', message: userMsg('go') }]),
    );
    const b = await ExplorerBackend.create({ home, isDemo: false, label: 't', watch: false, lockPollMs: 0 });
    backends.push(b);
    const before = readFileSync(file);
    const e = await b
      .call(
        'branch',
        { key: sessionKey(), parentId: 'd1', text: 'é'.repeat(1_000_000), idempotencyKey: randomUUID() },
        client,
      )
      .then(
        () => null,
        (x: unknown) => x,
      );
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('too_large');
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});
