import { describe, expect, it } from 'vitest';
import type { Api } from '../../shared/api';
import { EXPORT_CHUNK_CHARS } from '../../shared/api-features';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { exportTextForCopy, MAX_COPY_CHARS, TooBigToCopyError } from './save-export';

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
