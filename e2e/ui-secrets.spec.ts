/**
 * Secrets in a session: counted on its library row and session card, marked (kind, never the
 * secret) in the History and the Projected pane; exports redact them unless the user confirms an
 * unredacted one from the palette; `?` and the palette list the actions.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cwdHash } from '../src/main/core/fnv1a64';
import { fixtureLedger } from '../src/main/secrets/fixtures/planted-secrets';
import { sessionKey } from '../src/shared/session-key';
import { expect, screenshot, sessionHash, test } from './ui-fixture';

test('secrets: counts, marks, redacted exports, an unredacted one only after confirming', async ({
  page,
  served,
}, testInfo) => {
  const f = fixtureLedger();
  const key = sessionKey('vak', cwdHash('/work/app'), '01a1f7f8-3000-7000-8000-00000000feed');
  const file = join(served.home, key);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, f.bytes);
  const github = f.planted.find((p) => p.what === 'github classic token')!;
  const allSecrets = f.planted.map((p) => p.secret);

  await served.open(page, sessionHash(key));
  // The library row and the session card count them once the scan is done: the server's first scan
  // starts its threads and loads the rules first, which takes seconds on a loaded machine.
  const row = page.locator(`.session-item[data-session-key="${key}"]`);
  await expect(row.locator('.secrets-badge')).toHaveAttribute('aria-label', /^(3\d) secrets found$/, {
    timeout: 30_000,
  });
  await expect(page.locator('.session-card .secrets-count')).toHaveText(/^3\d secrets$/);

  // S: what was found, and the first finding's entry selected; its History row carries a mark.
  await page.locator('.history-item').first().waitFor();
  await page.keyboard.press('S');
  await expect(page.getByRole('status')).toContainText(
    /^3\d secrets found: aws-secret-access-key ×1, github-token ×2, .* and \d+ more kinds\./,
  );
  // The first finding: the AWS secret key (the preset leaves the access key id alone: docs/secrets.md).
  const first = page.locator(`.history-item[data-entry-id="${f.plantedIds[1]}"]`);
  await expect(first.locator('.secret-mark')).toHaveText('secret: aws-secret-access-key');
  await expect(first.locator('.secret-mark').first()).toBeVisible();
  await expect(page.locator('.projected-msg .secret-mark').first()).toBeVisible();
  // A mark names the kind and the field, never the secret (not in its text, nor in a tooltip).
  const marks = await page
    .locator('.secret-mark, .secrets-badge, .secrets-count')
    .evaluateAll((els) =>
      els.map((e) => `${e.textContent} ${e.getAttribute('title')} ${e.getAttribute('aria-label')}`),
    );
  expect(marks.length).toBeGreaterThan(2);
  for (const m of marks) for (const s of allSecrets) expect(m).not.toContain(s);
  await screenshot(page, 'secrets');

  // Back to the active leaf (every tool result in its context); the JSON export is redacted.
  await page.goto(`${served.url}#${sessionHash(key)}`);
  await expect(row.locator('.secrets-badge')).toBeVisible();
  const exportBar = page.getByRole('group', { name: 'Export' });
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    exportBar.getByRole('button', { name: 'JSON' }).click(),
  ]);
  const redacted = readFileSync(await json.path(), 'utf8');
  expect(redacted).toContain('[redacted: github-token]');
  expect(redacted).not.toContain(github.secret);
  expect(JSON.parse(redacted).redaction.note).toMatch(/hash chain .* no longer verifies/);
  await expect(page.getByRole('status')).toContainText(/secrets redacted/);

  // `?` lists the keyed action; the palette lists the unredacted exports.
  await page.keyboard.press('?');
  const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(overlay.locator('[data-action-id="secrets.show"]')).toContainText('Show the secrets found');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await palette.getByRole('combobox').fill('JSON, unredacted');
  const option = palette.locator('[data-palette-id="action:export.json.unredacted"]');
  await expect(option).toBeVisible();
  await screenshot(page, 'secrets-palette');

  // Declined: nothing is saved. Accepted: the file holds the secrets as they are.
  page.once('dialog', (d) => void d.dismiss());
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(/^Not exported\./);
  await page.keyboard.press('Control+K');
  await palette.getByRole('combobox').fill('JSON, unredacted');
  await expect(option).toBeVisible();
  page.once('dialog', (d) => {
    expect(d.message()).toMatch(/WITHOUT redaction/);
    void d.accept();
  });
  const [raw] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  const unredacted = readFileSync(await raw.path(), 'utf8');
  expect(unredacted).toContain(github.secret);
  await expect(page.getByRole('status')).toContainText('Unredacted');
  testInfo.annotations.push({ type: 'secrets', description: `${marks.length} marks checked` });
});
