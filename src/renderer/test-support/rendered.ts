/**
 * What a renderer test left drawn or open (the app, its backends), ended after each test by the
 * setup file render-cleanup.ts. A module of its own, light to import: every test file's setup loads it.
 */
const toEnd: (() => Promise<void> | void)[] = [];

/** Ends `close` after the running test. */
export function endAfterTest(close: () => Promise<void> | void): void {
  toEnd.push(close);
}

/** Ends what the test left, in the order it was opened. */
export async function endRendered(): Promise<void> {
  for (const close of toEnd.splice(0)) await close();
}
