import type { Api } from '../../shared/api';
import { describeError } from '../api/api-methods';
import type { AppState } from '../store/app-store';
import { leafRequestOf, leafViewRequestOf, pagedOf } from '../store/leaf-request';

/** The store as the loader reads it: its state and its changes. */
export interface LoaderStore {
  getState(): AppState;
  subscribe(listener: (s: AppState) => void): () => void;
}

/** What the shown leaf view depends on: a change of any of them asks again, nothing else does. */
interface Wanted {
  key: string;
  leaf: string | null;
  plan: AppState['plan'];
  profile: AppState['profile'];
  overrides: AppState['overrides'];
  paged: boolean;
  treeVersion: number;
  /**
   * The active leaf's appends (null for another leaf: its chain never changes). While a first
   * read is under way the active leaf's view waits for it to end, so the read's last step is no
   * append: 'reading' then stands for the appends it will have seen.
   */
  appends: number | 'reading' | null;
}

function wantedOf(s: AppState): Wanted | null {
  if (!s.sessionKey || !s.sessionInfo) return null;
  const active = s.leaf === null;
  return {
    key: s.sessionKey,
    leaf: s.leaf,
    plan: s.plan,
    profile: s.profile,
    overrides: s.overrides,
    paged: pagedOf(s),
    treeVersion: s.treeVersion,
    appends: !active ? null : s.sessionInfo.reading ? 'reading' : s.appendVersion,
  };
}

const same = (a: Wanted, b: Wanted): boolean =>
  a.key === b.key &&
  a.leaf === b.leaf &&
  a.plan === b.plan &&
  a.profile === b.profile &&
  a.overrides === b.overrides &&
  a.paged === b.paged &&
  a.treeVersion === b.treeVersion &&
  // The end of a first read answers the view asked while reading: not asked again.
  (a.appends === b.appends || a.appends === 'reading');

/**
 * Keeps `leafView` in the store in step with the selection, outside React: the store tells the
 * loader of a change as it is made, so a click's request leaves in the click's own task (not after
 * a render and its effects). One request per view wanted; one that a newer selection replaces is
 * aborted (the backend drops or stops its work) and its answer, should one still come, dropped.
 * Returns what stops it.
 */
export function startLeafLoader(api: Api, store: LoaderStore): () => void {
  let asked: Wanted | null = null;
  let abort: AbortController | null = null;
  const check = (s: AppState): void => {
    const want = wantedOf(s);
    if (!want) {
      // No session (or not open yet): nothing to show, nothing to wait for.
      if (!s.sessionKey && abort) {
        abort.abort();
        abort = null;
        asked = null;
      }
      return;
    }
    if (asked && same(asked, want)) {
      asked = want;
      return;
    }
    abort?.abort();
    const mine = new AbortController();
    abort = mine;
    asked = want;
    const req = leafRequestOf(want, want.key);
    // Sent before the store hears of it: the request is on the wire in this task.
    const answer = api.getLeafView(leafViewRequestOf(want, want.key, want.paged), { signal: mine.signal });
    s.leafLoadStarted();
    answer.then(
      (v) => !mine.signal.aborted && store.getState().leafLoaded(v, req),
      (e: unknown) => !mine.signal.aborted && store.getState().leafFailed(describeError(e)),
    );
  };
  const off = store.subscribe(check);
  check(store.getState());
  return () => {
    off();
    abort?.abort();
  };
}
