// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderOnBackend, sessionHash } from '../test-support/render-backend';

/**
 * A session read in steps has its hash chain checked after the read. The plan bar's
 * warnings count says it is provisional until the `checked` event, then counts the hash mismatch
 * (the damaged fixture has one, line 6).
 */
describe('the hash check after a first read in steps', () => {
  it('"warnings N…" until checked, then the whole count', async () => {
    const labels: string[] = [];
    const seen = new MutationObserver(() => {
      const b = [...document.querySelectorAll('footer.plan-bar button')].find((x) =>
        x.textContent?.startsWith('warnings'),
      );
      const label = b ? `${b.textContent}|${b.getAttribute('title') ?? ''}` : null;
      if (label && labels.at(-1) !== label) labels.push(label);
    });
    seen.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    const api = await renderOnBackend({ fixtures: ['damaged'], hash: sessionHash('damaged'), firstReadBytes: 97 });
    await waitFor(() => expect(api.events.some((e) => e.type === 'session' && e.change === 'checked')).toBe(true));
    const whole = await api.getWarnings({ key: api.keyOf('damaged') });
    expect(whole.filter((w) => w.code === 'hash_mismatch')).toHaveLength(1);
    const button = () => screen.getByRole('button', { name: /^warnings/ });
    await waitFor(() => expect(button().textContent).toBe(`warnings ${whole.length}`));
    expect(button().getAttribute('title')).toBeNull();
    seen.disconnect();
    // Provisional while the check was pending, with its tooltip.
    expect(labels.some((l) => /^warnings \d+…\|Checking the hash chain/.test(l))).toBe(true);
  });
});
