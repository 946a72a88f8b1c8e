/**
 * An export bigger than one reply (8 MiB) saved from the UI in serve mode: the HTML of a
 * 6,000-entry session streams from the loopback server as a download, whole.
 */
import { test, expect } from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSession } from '../src/generator';
import { startServe } from '../src/test-support/serve-process';

const KEY = 'agents/vak/sessions/0000000000000000/01a22688-5a80-7d3d-a60d-53f7388101d3.jsonl';

test('the HTML export of a session over 8 MiB downloads whole in serve mode', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'vak-ui-export-big-'));
  const home = join(dir, 'home');
  mkdirSync(join(home, KEY, '..'), { recursive: true });
  generateSession({
    seed: 21,
    entries: 6000,
    cwd: '/work/big',
    path: join(home, KEY),
    toolResultBytes: [5000, 12400],
    shape: 'uncompacted',
  });
  const { child, url } = await startServe(home);
  try {
    await page.goto(`${url}#s=${encodeURIComponent(KEY)}`);
    await expect(page.locator('.leaf-panes[aria-busy="false"]')).toBeVisible({ timeout: 60_000 });
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByRole('group', { name: 'Export' }).getByRole('button', { name: 'HTML' }).click(),
    ]);
    const file = testInfo.outputPath(download.suggestedFilename());
    await download.saveAs(file);
    expect(await download.failure()).toBeNull();
    await expect(page.getByRole('status')).toContainText(`Saved ${download.suggestedFilename()}`);
    expect(statSync(file).size).toBeGreaterThan(8 * 1024 * 1024);
    const html = readFileSync(file, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.endsWith('</html>\n')).toBe(true);
    const data = /<script type="application\/json" id="vak-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const parsed = JSON.parse(data) as { rows: unknown[]; entries: Record<string, string> };
    expect(Object.keys(parsed.entries)).toHaveLength(5000);
    expect(parsed.rows.length).toBe(6000);
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});
