import type { ExplorerBackendOptions } from '../main/api/backend-options';

/**
 * A backend's options as the tests make it: not the demo, not watching the home and no lock
 * polling, so that nothing changes under a test but what the test itself does.
 */
export function testBackendOptions(home: string, more: Partial<ExplorerBackendOptions> = {}): ExplorerBackendOptions {
  return { home, isDemo: false, label: 'test', watch: false, lockPollMs: 0, ...more };
}
