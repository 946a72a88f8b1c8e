import { describe, expect, it } from 'vitest';
import type { Api } from '../../shared/api';
import { EXPORT_CHUNK_CHARS } from '../../shared/api-features';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import type { DesktopExports, SaveExportOutcome } from '../../shared/api-save-export';
import { exportTextForCopy, MAX_COPY_CHARS, saveExport, TooBigToCopyError } from './save-export';

/** The three export methods only, answering `chunks` chunks of a full chunk each (an injected size, not a backend). */
function chunkedApi(chunks: number): { api: Api; reads: () => number; ended: string[] } {
  let reads = 0;
  const ended: string[] = [];
  const api = {
    beginExport: async () => ({ exportId: 'e'.repeat(24), fileName: 'x.json', mimeType: 'application/json' as const }),
    readExport: async () => {
      reads++;
      return { text: 'x'.repeat(EXPORT_CHUNK_CHARS), done: reads === chunks };
    },
    endExport: async ({ exportId }: { exportId: string }) => {
      ended.push(exportId);
      return { ended: true };
    },
  } as unknown as Api;
  return { api, reads: () => reads, ended };
}

const req = { key: 'k', leaf: null, plan: 'auto' as const, profile: DEFAULT_PROFILE, format: 'json' as const };

describe('copy all of an export', () => {
  it('copies a text up to MAX_COPY_CHARS whole', async () => {
    const { api } = chunkedApi(MAX_COPY_CHARS / EXPORT_CHUNK_CHARS);
    expect((await exportTextForCopy(api, req)).length).toBe(MAX_COPY_CHARS);
  });

  it('stops past it: says it is too big to copy, offers a file, and ends the export it no longer reads', async () => {
    const { api, reads, ended } = chunkedApi(100);
    const copied = exportTextForCopy(api, req);
    await expect(copied).rejects.toBeInstanceOf(TooBigToCopyError);
    await expect(copied).rejects.toThrow(/Too big to copy.*Save it as a file/);
    expect(reads()).toBe(MAX_COPY_CHARS / EXPORT_CHUNK_CHARS + 1);
    expect(ended).toEqual(['e'.repeat(24)]);
  });
});

describe('save as a file in the app', () => {
  /** The preload's DesktopExports, answering `outcome`; the page's own export calls must not run. */
  function desktop(outcome: SaveExportOutcome): { exports: DesktopExports; asked: unknown[] } {
    const asked: unknown[] = [];
    return {
      asked,
      exports: {
        saveAs: async (r) => {
          asked.push(r);
          return outcome;
        },
      },
    };
  }
  const pageApi = {
    beginExport: async () => expect.fail('the page began an export: it would hold it'),
  } as unknown as Api;
  const note = (n: number | undefined) => (n ? ` ${n} secrets redacted.` : '');

  it('main saves it (the request goes whole, unredacted choice included); the notice names the file', async () => {
    const { exports, asked } = desktop({
      saved: '/home/ana/notes/mine.json',
      fileName: 'x.json',
      bytes: 3 << 20,
      redacted: 2,
    });
    const text = await saveExport(pageApi, { ...req, unredacted: true }, note, exports);
    expect(asked).toEqual([{ ...req, unredacted: true }]);
    expect(text).toBe('Saved mine.json (3.0 MiB) at /home/ana/notes/mine.json. 2 secrets redacted.');
  });

  it('a closed dialog saves nothing and says so', async () => {
    const { exports } = desktop({ cancelled: true });
    expect(await saveExport(pageApi, req, note, exports)).toBe('Export cancelled: nothing was saved.');
  });
});
