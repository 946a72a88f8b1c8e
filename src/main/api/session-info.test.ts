import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../shared/api';
import type { ApiClient } from './api-backend';
import { ExplorerBackend } from './explorer-backend';
import { makeWritable } from '../../test-support/make-writable';

const FIXTURES = join(__dirname, '../../../../shared/fixtures');
const BIG = 'agents/vak/sessions/70929a3c84065db2/01a1f7f8-3000-7bce-9f84-9a13f02868af.jsonl';

let dir: string;
let backend: ExplorerBackend;
const client: ApiClient = { id: 'c1', push: () => undefined };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vak-session-info-'));
  cpSync(join(FIXTURES, 'demo-home'), join(dir, 'home'), { recursive: true });
  makeWritable(join(dir, 'home'));
  backend = await ExplorerBackend.create({ home: join(dir, 'home'), isDemo: false, label: 'test', lockPollMs: 0 });
});
afterEach(async () => {
  await backend.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a session’s figures', () => {
  it('carry the active leaf’s row, folded and not, as findRow answers it', async () => {
    const info = (await backend.call('openSession', { key: BIG }, client)) as SessionInfo;
    const find = (foldAudit: boolean) => backend.call('findRow', { key: BIG, id: info.activeLeaf, foldAudit }, client);
    expect(info.activeLeafRows).toEqual({
      row: ((await find(false)) as { row: number }).row,
      foldedRow: ((await find(true)) as { row: number }).row,
    });
    // Folding audit runs moves the row in this session: both are needed.
    expect(info.activeLeafRows!.foldedRow).toBeLessThan(info.activeLeafRows!.row);
  });
});
