/**
 * The secret survey: a session never opened gets its count on the library row, found by the
 * background survey of the home (serve mode turns it on), without the user opening it.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cwdHash } from '../src/main/core/fnv1a64';
import { fixtureLedger } from '../src/main/secrets/fixtures/planted-secrets';
import { sessionKey } from '../src/shared/session-key';
import { expect, test } from './ui-fixture';

/** Writes the planted-secrets ledger into `home` as a session never opened; returns its key. */
function plantSecretsSession(home: string): string {
  const key = sessionKey('vak', cwdHash('/work/app'), '01a1f7f8-3000-7000-8000-00000000feed');
  const file = join(home, key);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, fixtureLedger().bytes);
  // Older than the demo's sessions: nothing opens it on its own.
  utimesSync(file, new Date('2020-01-01'), new Date('2020-01-01'));
  return key;
}

test('secret survey: a never-opened session with planted secrets shows its count on its row', async ({
  page,
  served,
}) => {
  const key = plantSecretsSession(served.home);

  await served.open(page);
  const row = page.locator(`.session-item[data-session-key="${key}"]`);
  await expect(row).toBeVisible({ timeout: 30_000 });
  // The survey's count (its tooltip says so: the session was not opened), within a generous bound
  // on a loaded machine: the survey starts after the backend settles and steps only in lulls.
  const badge = row.locator('.secrets-badge');
  await expect(badge).toHaveAttribute('aria-label', /^3\d secrets found$/, { timeout: 60_000 });
  await expect(badge).toHaveAttribute('title', /by the background survey \(the session was not opened\)/);
  // Never opened: not the session shown.
  await expect(row).not.toHaveAttribute('aria-current', 'true');
});

test('secret survey setting: off, never-opened rows say "not counted" in every window; on, the counts are back', async ({
  page,
  context,
  served,
}) => {
  const key = plantSecretsSession(served.home);

  await served.open(page);
  const row = page.locator(`.session-item[data-session-key="${key}"]`);
  const badge = row.locator('.secrets-badge');
  await expect(badge).toHaveAttribute('aria-label', /^3\d secrets found$/, { timeout: 60_000 });
  const counted = await badge.getAttribute('aria-label');
  // A second window of the same server, to see the change arrive there too.
  const other = await context.newPage();
  await served.open(other);
  const otherRow = other.locator(`.session-item[data-session-key="${key}"]`);
  await expect(otherRow.locator('.secrets-badge')).toHaveAttribute('aria-label', counted ?? '', { timeout: 30_000 });

  // Off from the keyboard: the checkbox at the library's foot takes Space.
  const setting = page.getByRole('checkbox', { name: 'Count secrets in sessions never opened' });
  await expect(setting).toBeChecked();
  await setting.focus();
  await page.keyboard.press('Space');
  await expect(setting).not.toBeChecked();
  await expect(row.locator('.secrets-state')).toHaveText('not counted');
  await expect(badge).toHaveCount(0);
  // The other window heard it (the server's event), without a reload.
  await expect(other.getByRole('checkbox', { name: 'Count secrets in sessions never opened' })).not.toBeChecked();
  await expect(otherRow.locator('.secrets-state')).toHaveText('not counted');
  await expect(otherRow.locator('.secrets-badge')).toHaveCount(0);

  // On again from the palette: the counts are back (unchanged files are not read again).
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await palette.getByRole('combobox').fill('count in sessions never opened');
  await expect(palette.locator('[role=option]').first()).toContainText(
    'Secrets: count in sessions never opened (on/off)',
  );
  await page.keyboard.press('Enter');
  await expect(setting).toBeChecked();
  await expect(badge).toHaveAttribute('aria-label', counted ?? '', { timeout: 30_000 });
  await expect(row.locator('.secrets-state')).toHaveCount(0);
  await expect(otherRow.locator('.secrets-badge')).toHaveAttribute('aria-label', counted ?? '', { timeout: 30_000 });
});
