/**
 * Settles once `wait` calls the `done` it is given, or after `capMs` if it has not: a wait that a
 * stalled answer must not stretch. No timer is left behind once `done` comes first.
 */
export function settledWithin(capMs: number, wait: (done: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, capMs);
    wait(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Settles once `p` has settled (resolved or rejected), or after `capMs` if it has not. */
export function promiseWithin(p: Promise<unknown>, capMs: number): Promise<void> {
  return settledWithin(capMs, (done) => void p.then(done, done));
}
