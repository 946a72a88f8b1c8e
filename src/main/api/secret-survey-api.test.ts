import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SecretCount } from '../../shared/api-secrets';
import { useTempDir } from '../../test-support/temp-dir';
import type { ApiClient } from './api-backend';
import { ExplorerBackend } from './explorer-backend';
import { fixtureLedger } from '../secrets/fixtures/planted-secrets';

const tempDir = useTempDir('vak-survey-api-');
const client: ApiClient = { id: 'c1', push: () => undefined };
let backend: ExplorerBackend | null = null;
afterEach(async () => {
  await backend?.close();
  backend = null;
});

const DIR = 'agents/vak/sessions/0123456789abcdef';
const A = `${DIR}/01a1f7f8-3000-7000-8000-00000000feed.jsonl`;
const B = `${DIR}/01a1f7f8-3000-7000-8000-00000000beef.jsonl`;

async function counts(b: ExplorerBackend): Promise<SecretCount[]> {
  return ((await b.call('getSecretCounts', {}, client)) as { sessions: SecretCount[] }).sessions;
}

describe('getSecretCounts with the survey on', () => {
  it('reports unopened sessions as surveyed with their counts, and an opened one once, as open', async () => {
    const home = tempDir();
    const f = fixtureLedger();
    mkdirSync(join(home, DIR), { recursive: true });
    writeFileSync(join(home, A), f.bytes);
    writeFileSync(join(home, B), f.bytes);
    backend = await ExplorerBackend.create({
      home,
      isDemo: false,
      label: 'test',
      watch: false,
      lockPollMs: 0,
      secretSurvey: true,
    });
    const b = backend;
    const first = await counts(b);
    expect(first.map((c) => [c.key, c.state]).sort()).toEqual([
      [B, 'pending'],
      [A, 'pending'],
    ]);
    // (Asking every 400 ms leaves the survey the lulls it waits for.)
    const surveyed = await vi.waitFor(
      async () => {
        const c = await counts(b);
        if (!c.every((x) => x.state === 'surveyed')) throw new Error('still surveying');
        return c;
      },
      { timeout: 60_000, interval: 400 },
    );
    expect(surveyed.map((c) => c.count)).toEqual([30, 30]);

    await b.call('openSession', { key: A }, client);
    const after = await counts(b);
    expect(after.filter((c) => c.key === A)).toEqual([expect.objectContaining({ key: A, state: 'open' })]);
    expect(after.find((c) => c.key === B)).toMatchObject({ state: 'surveyed', count: 30 });
  }, 90_000);

  it('lists no unopened session when the survey is off', async () => {
    const home = tempDir();
    mkdirSync(join(home, DIR), { recursive: true });
    // (Not A: the open scans' counts are the process's, and A was opened above.)
    writeFileSync(join(home, B), fixtureLedger().bytes);
    backend = await ExplorerBackend.create({ home, isDemo: false, label: 'test', watch: false, lockPollMs: 0 });
    expect((await counts(backend)).map((c) => c.key)).not.toContain(B);
  });
});
