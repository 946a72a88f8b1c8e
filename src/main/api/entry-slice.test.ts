import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_SLICE_BYTES, type EntryDetail, type RawLine } from '../../shared/api';
import { useTempDir } from '../../test-support/temp-dir';
import { BIG_ENTRY_ID, BIG_LINE_KEY, writeBigLineHome } from '../server/testing/big-line-home';
import { ApiError, type ApiClient } from './api-backend';
import { ExplorerBackend } from './explorer-backend';

const tempDir = useTempDir('vak-slice-');
const client: ApiClient = { id: 'slice', push: () => undefined };
let backend: ExplorerBackend;
let path: string;

beforeEach(async () => {
  const home = join(tempDir(), 'home');
  path = writeBigLineHome(home, 5 * 1024 * 1024 + 7);
  backend = await ExplorerBackend.create({ home, isDemo: false, label: 't', watch: false, lockPollMs: 0 });
});
afterEach(() => backend.close());

const get = (req: object) =>
  backend.call('getEntry', { key: BIG_LINE_KEY, id: BIG_ENTRY_ID, ...req }, client) as Promise<EntryDetail>;

describe('getEntry in slices', () => {
  it('pages a 5 MB line in windows of at most maxBytes that put the exact line back together', async () => {
    const lines = readFileSync(path, 'utf8').split('\n');
    const line = lines[lines.length - 2];
    const parts: string[] = [];
    let start = 0;
    let first: EntryDetail | null = null;
    for (;;) {
      const d = await get({ maxBytes: MAX_SLICE_BYTES, sliceStart: start });
      first ??= d;
      expect(d.sliceStart).toBe(start);
      expect(d.sliceEnd - d.sliceStart).toBeLessThanOrEqual(MAX_SLICE_BYTES);
      expect(d.truncated).toBe(true);
      expect(d.json).toBeNull();
      parts.push(d.raw);
      if (d.sliceEnd >= d.length) break;
      start = d.sliceEnd;
    }
    expect(parts).toHaveLength(3);
    expect(parts.join('')).toBe(line);
    expect(first?.length).toBe(Buffer.byteLength(line));
  });

  it('never splits a UTF-8 sequence, and a whole line comes parsed', async () => {
    const entry = {
      id: 'e-utf8',
      parent_id: BIG_ENTRY_ID,
      ts: '2026-11-29T09:08:00.000Z',
      prev_hash: null,
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: 'é€😀'.repeat(1000) }] },
    };
    appendFileSync(path, JSON.stringify(entry) + '\n');
    await backend.close();
    backend = await ExplorerBackend.create({
      home: join(path, '../../../../..'),
      isDemo: false,
      label: 't',
      watch: false,
      lockPollMs: 0,
    });
    const whole = (await backend.call('getEntry', { key: BIG_LINE_KEY, id: 'e-utf8' }, client)) as EntryDetail;
    expect(whole).toMatchObject({ sliceStart: 0, sliceEnd: whole.length, truncated: false });
    expect(whole.json).toMatchObject({ id: 'e-utf8' });
    let text = '';
    for (let start = 0; start < whole.length;) {
      const d = (await backend.call(
        'getEntry',
        { key: BIG_LINE_KEY, id: 'e-utf8', maxBytes: 1001, sliceStart: start },
        client,
      )) as EntryDetail;
      expect(d.raw).not.toContain('\uFFFD');
      text += d.raw;
      start = d.sliceEnd;
    }
    expect(text).toBe(whole.raw);
  });

  it(`refuses a window over ${MAX_SLICE_BYTES} bytes, saying to read in slices`, async () => {
    const e = await get({ maxBytes: MAX_SLICE_BYTES + 1 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('bad_request');
    expect((e as ApiError).message).toMatch(/slices/);
  });

  it('getLine pages a long line too: each slice says how many bytes it covers, the next starts there', async () => {
    const lines = readFileSync(path, 'utf8').split('\n');
    const line = lines[lines.length - 2];
    const lineOffset = Buffer.byteLength(lines.slice(0, -2).join('\n')) + 1;
    let text = '';
    let offset = lineOffset;
    let slices = 0;
    for (;;) {
      const l = (await backend.call(
        'getLine',
        { key: BIG_LINE_KEY, offset, maxBytes: MAX_SLICE_BYTES },
        client,
      )) as RawLine;
      slices++;
      expect(l.bytes).toBeLessThanOrEqual(MAX_SLICE_BYTES);
      text += l.text;
      if (l.length !== null) break;
      offset += l.bytes;
    }
    expect(slices).toBe(3);
    expect(text).toBe(line);
  });
});
