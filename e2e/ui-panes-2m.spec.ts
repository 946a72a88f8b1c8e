/**
 * "scale past Chromium's element height": the History and Projected lists at 2,000,000
 * rows each, in Chromium (real layout and real heights, which the jsdom tests only stub). The
 * demo session's leaf view has its chain and projection swapped in the page for synthetic rows
 * (bench/ui-page-scripts.ts: synthRowsScript; a 2M-entry ledger would be ~1 GB), so the panes,
 * their paging, links and scrolling are the app's own. Checks only what is reached, never a time.
 */
import { paneLinkScript, paneScaleScript, synthRowsScript } from '../bench/ui-page-scripts';
import { BIG, expect, screenshot, sessionHash, readingTest as test } from './ui-fixture';

const N = 2_000_000;

interface PaneFigures {
  scaled: boolean;
  contentPx: number;
  openedAtEnd: boolean;
  reachedFirst: boolean;
  reachedMiddle: boolean;
  reachedLast: boolean;
  endKey: boolean;
  homeKey: boolean;
  wheel: { skipped: number; fromRow: number; toRow: number };
}

/** The first row index whose row shows in a pane's viewport. */
const firstShown = (pane: string): string => `(() => {
  const el = document.querySelector('section[aria-label=${JSON.stringify(pane)}] .pane-scroll');
  const v = el.getBoundingClientRect();
  const r = [...el.querySelectorAll('[data-index]')].find((r) => r.getBoundingClientRect().bottom > v.top + 1);
  return r ? Number(r.dataset.index) : -1;
})()`;

test.describe('2M rows in both panes', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('both lists reach their first, middle and last rows, the wheel moves by pixels, links go both ways', async ({
    page,
    served,
  }) => {
    await page.addInitScript({ content: synthRowsScript(N, 0) });
    await served.open(page, sessionHash(BIG));
    await expect(page.locator('.leaf-panes[data-leaf-id]')).toHaveAttribute('aria-busy', 'false');
    const history = page.getByRole('region', { name: 'History' });
    const projected = page.getByRole('region', { name: 'Projected context' });
    await expect(history.getByText('2,000,000 entries root → leaf')).toBeVisible();
    // Both open at the leaf end, within a scroll height Chromium lays out.
    await expect(history.locator(`.history-item[data-entry-id="c${N - 1}"]`)).toBeInViewport();
    await expect(projected.locator(`.projected-msg[data-message-index="${N - 1}"]`)).toBeInViewport();
    await screenshot(page, 'panes-2m-end');

    // A real wheel over the History: a notch is ~100 px of rows (22 px each), not thousands of rows.
    const box = (await history.locator('.pane-scroll').boundingBox())!;
    await history.locator('.pane-scroll').evaluate((el) => (el.scrollTop = (el.scrollHeight - el.clientHeight) / 2));
    // Until the rows drawn are the middle's: right after the scroll the old rows at the end are still
    // in the DOM (below the viewport), and the first of them would pass a lower bound alone.
    await expect
      .poll(async () => Math.abs(((await page.evaluate(firstShown('History'))) as number) - N / 2))
      .toBeLessThan(100);
    const before = (await page.evaluate(firstShown('History'))) as number;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 300);
    await expect.poll(() => page.evaluate(firstShown('History'))).toBeGreaterThan(before + 5);
    const after = (await page.evaluate(firstShown('History'))) as number;
    expect(after - before).toBeLessThan(30);
    await page.mouse.move(0, 0);

    for (const pane of ['History', 'Projected context']) {
      const r = (await page.evaluate(paneScaleScript(pane, 1500, 1000, 3000))) as PaneFigures;
      expect(r, pane).toMatchObject({
        scaled: true,
        reachedFirst: true,
        reachedMiddle: true,
        reachedLast: true,
        endKey: true,
        homeKey: true,
      });
      expect(r.contentPx, pane).toBeLessThan(8_100_000);
      expect(r.wheel.skipped, pane).toBe(0);
      // 3,000 px of rows: History rows are one line; a message shows each of its (up to 7) lines, verbatim.
      expect(r.wheel.toRow - r.wheel.fromRow, pane).toBeGreaterThan(pane === 'History' ? 50 : 25);
    }

    // Links across: an entry about 62% in → its message; a message about 38% in → its entry.
    const links = (await page.evaluate(paneLinkScript(Math.round(N * 0.617), Math.round(N * 0.383)))) as {
      toMessage?: boolean;
      toEntry?: boolean;
      row?: number;
      back?: number;
    };
    expect(links).toMatchObject({ toMessage: true, toEntry: true });
    await expect(history.locator(`.history-item.linked[data-entry-id="c${links.back}"]`)).toBeInViewport();
    await screenshot(page, 'panes-2m-linked');
  });
});
