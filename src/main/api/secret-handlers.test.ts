import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SecretCounts, SessionSecrets } from '../../shared/api-secrets';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { readWholeExport, type ExportCall } from '../../test-support/read-export';
import { useTempDir } from '../../test-support/temp-dir';
import { fixtureLedger } from '../secrets/fixtures/planted-secrets';
import type { ApiClient } from './api-backend';
import { ExplorerBackend } from './explorer-backend';

const tempDir = useTempDir('vak-secrets-api-');
const client: ApiClient = { id: 'c1', push: () => undefined };
let backend: ExplorerBackend | null = null;
afterEach(async () => {
  await backend?.close();
  backend = null;
});

const KEY = 'agents/vak/sessions/0123456789abcdef/01a1f7f8-3000-7000-8000-00000000feed.jsonl';

async function fixtureBackend(): Promise<{ b: ExplorerBackend; f: ReturnType<typeof fixtureLedger> }> {
  const home = tempDir();
  const f = fixtureLedger();
  mkdirSync(join(home, KEY, '..'), { recursive: true });
  writeFileSync(join(home, KEY), f.bytes);
  backend = await ExplorerBackend.create({ home, isDemo: false, label: 'test', watch: false, lockPollMs: 0 });
  return { b: backend, f };
}

describe('secrets over the API', () => {
  it('counts and locates findings, never sending a secret', async () => {
    const { b, f } = await fixtureBackend();
    await b.call('openSession', { key: KEY }, client);
    // The scan runs in steps after the read: asked again until it is done.
    const s = await vi.waitFor(
      async () => {
        const r = (await b.call('getSecrets', { key: KEY }, client)) as SessionSecrets;
        if (r.scanning) throw new Error('still scanning');
        return r;
      },
      { timeout: 30_000, interval: 20 },
    );
    expect(s.count).toBeGreaterThanOrEqual(30);
    expect(s.kinds['github-token']).toBeGreaterThanOrEqual(1);
    const text = JSON.stringify(s);
    for (const p of f.planted) expect(text).not.toContain(p.secret);
    const one = (await b.call('getSecrets', { key: KEY, entryIds: [f.plantedIds[3]] }, client)) as SessionSecrets;
    expect(one.findings.map((x) => x.kind)).toEqual(['github-token']);
    const counts = (await b.call('getSecretCounts', {}, client)) as { sessions: { key: string; count: number }[] };
    expect(counts.sessions.find((c) => c.key === KEY)?.count).toBe(s.count);
  });

  it('pushes the counts to library subscribers as the scan moves them, to the scan’s end', async () => {
    const { b } = await fixtureBackend();
    const heard: SecretCounts[] = [];
    let done: () => void = () => undefined;
    const scanned = new Promise<void>((resolve) => (done = resolve));
    const listener: ApiClient = {
      id: 'listener',
      push: (e) => {
        if (e.type !== 'secretCounts') return;
        heard.push(e.counts);
        const mine = e.counts.sessions.find((c) => c.key === KEY);
        if (mine && !mine.scanning && mine.count > 0) done();
      },
    };
    await b.call('subscribe', { topic: 'library' }, listener);
    await b.call('openSession', { key: KEY }, client);
    await scanned;
    // What was pushed last is what a client asking now hears: nothing left to poll for.
    const asked = (await b.call('getSecretCounts', {}, client)) as SecretCounts;
    expect(heard.at(-1)).toEqual(asked);
    expect(asked.sessions.find((c) => c.key === KEY)?.count).toBeGreaterThanOrEqual(30);
    // Only counts that moved are pushed.
    const texts = heard.map((c) => JSON.stringify(c));
    expect(texts.filter((t, i) => t === texts[i - 1])).toEqual([]);
  });

  it('redacts every export by default, with a header; unredacted only when asked', async () => {
    const { b, f } = await fixtureBackend();
    const req = { key: KEY, leaf: null, plan: 'none', profile: DEFAULT_PROFILE } as const;
    const secret = f.planted[3].secret;
    const call: ExportCall = (m, r) => b.call(m, r, client);
    for (const format of ['json', 'markdown'] as const) {
      const e = await readWholeExport(call, { ...req, format });
      expect(e.text).not.toContain(secret);
      expect(e.text).toContain('[redacted: github-token]');
      expect(e.text).toMatch(/\d+ secrets redacted .*hash chain .*no longer verifies/);
      expect(e.redacted).toBeGreaterThanOrEqual(20);
      const raw = await readWholeExport(call, { ...req, format, unredacted: true });
      expect(raw.text).toContain(secret);
      expect(raw.redacted).toBe(0);
    }
    const html = await readWholeExport(call, { ...req, format: 'html' });
    expect(html.text).not.toContain(secret);
    expect(html.text).toContain('[redacted: github-token]');
    expect(html.text).toMatch(/no longer verifies/);
    const rawHtml = await readWholeExport(call, { ...req, format: 'html', unredacted: true });
    expect(rawHtml.text).toContain(secret);
    const copied = (await b.call('redactTexts', { key: KEY, texts: [f.planted[3].text, 'plain'] }, client)) as {
      texts: string[];
      redacted: number;
    };
    expect(copied.texts).toEqual(['export GITHUB_TOKEN=[redacted: github-token]', 'plain']);
    expect(copied.redacted).toBe(1);
  });
});
