/**
 * The fate strip in Chromium through serve mode: pin a directive in the History, open the strip
 * from the palette or its key (F), read how it reached the model at every later turn end and the
 * reason it stopped being sent as itself; compare mode shows plan B's strip under A's.
 */
import type { Page } from '@playwright/test';
import { BIG, expect, screenshot, sessionHash, readingTest as test } from './ui-fixture';

/** The demo session's first directive: Full for five turn ends, then a Card, then hidden by a reset (w 18,000). */
const FIRST = '01a1f7f9-9b4d-7890-9609-86b869929461';
const history = (page: Page) => page.getByRole('region', { name: 'History' });
const strip = (page: Page) => page.getByRole('region', { name: 'Fate of the pinned entry' });

/** A short leaf (an intent, on the first branch) and the active leaf: FIRST is on both chains. */
const SHORT_LEAF = '01a1f80b-8663-72cc-a90f-39267016714b';
const ACTIVE_LEAF = '01a1f858-ae4e-77fe-9fad-97bb11e4c204';

async function pinFirstDirective(page: Page): Promise<void> {
  await pinEntry(page, FIRST);
}

/** Pins a History row, scrolled into view from the root end (`top`) or the leaf end. */
async function pinEntry(page: Page, id: string, top = true): Promise<void> {
  await expect(page.locator('.leaf-panes[aria-busy="false"]')).toBeVisible();
  const row = history(page).locator(`.history-item[data-entry-id="${id}"]`);
  // The History starts at the leaf end: scroll to the root until the row is drawn.
  await expect
    .poll(async () => {
      await history(page)
        .locator('.pane-scroll')
        .evaluate((el, top) => (el.scrollTop = top ? 0 : el.scrollHeight), top);
      return row.count();
    })
    .toBeGreaterThan(0);
  // Keyboard: focus the row's id and press Enter (the pin).
  await row.locator('.history-id').focus();
  await page.keyboard.press('Enter');
}

test.describe('the fate of an entry', () => {
  test('a pinned directive: Full, then its turn as a Card, then hidden by a reset, with the reason', async ({
    page,
    served,
  }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await served.open(page, sessionHash(BIG, '&v=2&w=18000&plan=auto'));
    await pinFirstDirective(page);
    // The palette lists the action; running it opens the strip.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('fate of the pinned');
    await expect(page.getByRole('option', { name: /Fate of the pinned entry/ })).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(strip(page)).toBeVisible();
    const runs = strip(page).locator('.fate-run');
    await expect(runs).toHaveCount(3);
    expect(
      await runs.evaluateAll((els) => els.map((e) => [e.getAttribute('data-fidelity'), e.getAttribute('data-turns')])),
    ).toEqual([
      ['full', '1-5'],
      ['card', '6-11'],
      ['reset-hidden', '12-17'],
    ]);
    await expect(strip(page).locator('.fate-run.fate-change')).toHaveAttribute('data-fidelity', 'card');
    await expect(strip(page).getByTestId('fate-reason-A')).toHaveText(
      /^from turn 6 on, its turn is sent as a card because the closed turns needed [\d,]+ tokens at Full, [\d,]+ over the budget of [\d,]+$/,
    );
    // Keyboard reachable: the strip is a slider whose arrows read each stretch out.
    const slider = strip(page).getByRole('slider');
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(slider).toHaveAttribute('aria-valuetext', /^turns 6–11: Card · \d+ tok$/);
    await expect(strip(page).locator('.fate-shown')).toHaveText(/^turns 6–11: Card/);
    await screenshot(page, 'fate-strip');

    // The keys overlay (?) lists it under its key.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('?');
    await expect(
      page.getByText('Fate of the pinned entry: how it reached the model at every later turn end'),
    ).toBeVisible();
    await page.keyboard.press('Escape');
    // F hides and shows it again.
    await page.keyboard.press('F');
    await expect(strip(page)).toHaveCount(0);
    await page.keyboard.press('F');
    await expect(strip(page)).toBeVisible();
  });

  test('compare mode shows plan B under plan A', async ({ page, served }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await served.open(page, sessionHash(BIG, '&v=2&w=18000&plan=auto&cmp=plan&bplan=none'));
    await pinFirstDirective(page);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('F');
    const b = strip(page).locator('.fate-line[data-side="B"] .fate-run');
    await expect(b).toHaveCount(2);
    expect(await b.evaluateAll((els) => els.map((e) => e.getAttribute('data-fidelity')))).toEqual([
      'full',
      'reset-hidden',
    ]);
    await expect(strip(page).getByTestId('fate-reason-B')).toHaveText(
      /^Plan B: from turn 12 on, it stands before reset/,
    );
    await expect(strip(page).getByTestId('fate-reason-A')).toHaveText(
      /^Plan A: from turn 6 on, its turn is sent as a card/,
    );
    await screenshot(page, 'fate-strip-compare');
  });

  test("compare two leaves: B's strip follows B's leaf, or says the entry is not on its chain", async ({
    page,
    served,
  }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await served.open(
      page,
      sessionHash(BIG, `&v=2&w=18000&plan=auto&leaf=${SHORT_LEAF}&cmp=leaf&bleaf=${ACTIVE_LEAF}&bplan=auto`),
    );
    await pinFirstDirective(page);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('F');
    const runsOf = (side: string) =>
      strip(page)
        .locator(`.fate-line[data-side="${side}"] .fate-run`)
        .evaluateAll((els) => els.map((e) => [e.getAttribute('data-fidelity'), e.getAttribute('data-turns')]));
    // A's short chain ends before the reset; B's (the active leaf's) goes on past it: 17 turn ends.
    await expect(strip(page).getByTestId('fate-reason-B')).toHaveText(
      /^Leaf B \(…11e4c204\): from turn 6 on, its turn is sent as a card/,
    );
    await expect(strip(page).getByTestId('fate-reason-A')).toHaveText(/^Leaf A \(…7016714b\): /);
    const a = await runsOf('A');
    const b = await runsOf('B');
    expect(b).toEqual([
      ['full', '1-5'],
      ['card', '6-11'],
      ['reset-hidden', '12-17'],
    ]);
    expect(a.length).toBeGreaterThan(0);
    expect(a.some(([f]) => f === 'reset-hidden')).toBe(false);
    await screenshot(page, 'fate-strip-two-leaves');
    // A's own leaf is on another branch than B's: B's line says so instead of a strip.
    await pinEntry(page, SHORT_LEAF, false);
    await expect(strip(page).getByTestId('fate-reason-B')).toHaveText(
      "Leaf B (…11e4c204): not on this leaf's chain, so this entry never reaches B's model",
    );
    await expect(strip(page).locator('.fate-line[data-side="B"] .fate-run')).toHaveCount(0);
    await expect(strip(page).locator('.fate-line[data-side="A"] .fate-run').first()).toBeVisible();
    await screenshot(page, 'fate-strip-two-leaves-off-chain');
  });

  test('search in what the model saw: across every turn end, and at this leaf; a hit opens its fate', async ({
    page,
    served,
  }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await served.open(page, sessionHash(BIG, '&v=2&w=18000&plan=auto'));
    await expect(page.locator('.leaf-panes[aria-busy="false"]')).toBeVisible();
    await page.keyboard.press('Control+f');
    const search = page.getByRole('navigation', { name: 'Search' });
    await search.getByRole('button', { name: 'what the model saw' }).click();
    await page.getByRole('searchbox', { name: 'Search what the model saw' }).fill('Make it deterministic');
    const summary = search.getByTestId('projected-summary');
    await expect(summary).toHaveText('sent from turn 1 to turn 17 (of 17 turn ends)');
    const first = search.locator(`.projected-hit[data-entry-id="${FIRST}"]`);
    await expect(first).toContainText('turns 1–5 · Full · message');
    await expect(first).toContainText('`branch_appends_directive` is flaky');
    await screenshot(page, 'fate-projected-search');
    // At this leaf (after the reset) the first directive is no longer sent.
    await search.getByRole('button', { name: 'at this leaf' }).click();
    await expect(summary).toHaveText('1 message at this leaf');
    await expect(first).toHaveCount(0);
    // Every turn end again; choosing the hit pins its entry and shows its fate.
    await search.getByRole('button', { name: 'every turn end' }).click();
    await first.click();
    await expect(strip(page)).toContainText(FIRST);
    await expect(strip(page).getByTestId('fate-reason-A')).toHaveText(/^from turn 6 on, its turn is sent as a card/);
  });
});
