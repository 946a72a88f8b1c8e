/**
 * The app's own data files (settings, recent files, prices) are read at start and on requests: a
 * FIFO, a directory or an oversized file put at their path is read as "no file", never waited on.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../test-support/temp-dir';
import { PRICES_FILE } from '../cost/price-table';
import { MAX_DATA_FILE_BYTES } from '../core/safe-open';
import { RECENT_FILE, RecentFiles } from '../library/recent-files';
import { AppSettingsFile, SETTINGS_FILE } from './app-settings';

const tempDir = useTempDir('vak-data-files-');

describe("the app's data files", () => {
  it('a FIFO at settings.json, recent-files.json or prices.json reads as no file, without waiting', () => {
    const data = tempDir();
    for (const f of [SETTINGS_FILE, RECENT_FILE, PRICES_FILE]) execFileSync('mkfifo', [join(data, f)]);
    // A read that waits on a FIFO with no writer blocks its thread for good: the reads run in a
    // child process, stopped after a bound, so such a wait fails this test instead of hanging it.
    const script = join(data, 'read-all.mts');
    writeFileSync(
      script,
      [
        `import { AppSettingsFile } from ${JSON.stringify(resolve('src/main/api/app-settings.ts'))};`,
        `import { RecentFiles } from ${JSON.stringify(resolve('src/main/library/recent-files.ts'))};`,
        `import { loadPriceTable } from ${JSON.stringify(resolve('src/main/cost/price-table.ts'))};`,
        `const dir = ${JSON.stringify(data)};`,
        `const p = loadPriceTable(dir);`,
        `console.log(JSON.stringify([new AppSettingsFile(dir).read(), new RecentFiles(dir).paths(), p.source, p.errors]));`,
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, ['bin/run-ts.mjs', script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.signal, 'the reads waited on a FIFO').toBeNull();
    expect(JSON.parse(run.stdout)).toEqual([
      {},
      [],
      'bundled',
      [`${join(data, PRICES_FILE)}: not a regular file; not read`],
    ]);
  });

  it('a directory or an oversized file at their path reads as no file', () => {
    const data = tempDir();
    mkdirSync(join(data, SETTINGS_FILE));
    writeFileSync(join(data, RECENT_FILE), `{"files":["/a.jsonl"]}${' '.repeat(MAX_DATA_FILE_BYTES)}`);
    expect(new AppSettingsFile(data).read()).toEqual({});
    expect(new RecentFiles(data).paths()).toEqual([]);
    // The same files, well-formed and small, are read.
    const ok = tempDir();
    writeFileSync(join(ok, SETTINGS_FILE), '{"secretSurvey":false}');
    writeFileSync(join(ok, RECENT_FILE), '{"files":["/a.jsonl"]}');
    expect(new AppSettingsFile(ok).read()).toEqual({ secretSurvey: false });
    expect(new RecentFiles(ok).paths()).toEqual(['/a.jsonl']);
  });
});
