import { useEffect } from 'react';
import type { Api, SessionKey } from '../../shared/api';
import type { AskEarly } from '../api/early-asks';
import { useAppStore } from '../store/app-store';
import { leafRequestOf, pagedOf } from '../store/leaf-request';
import { setSessionStarter } from '../store/session-slice';
import { restoreUrl } from '../store/use-url-sync';
import { jumpToEntry } from '../tree/tree-nav';
import { askOpenEarly, keepCursorRow } from './open-early';
import { SessionController } from './session-controller';

/** Turning follow on selects the newest leaf at once (appends then keep it selected). */
export function useFollow(api: Api): void {
  const follow = useAppStore((s) => s.follow);
  const activeLeaf = useAppStore((s) => s.sessionInfo?.activeLeaf ?? null);
  useEffect(() => {
    if (follow && activeLeaf) void jumpToEntry(api, activeLeaf);
  }, [api, follow, activeLeaf]);
}

/** The one controller of the open session: started by the input that chose it, or by useSession. */
let current: { api: Api; c: SessionController } | null = null;

function sessionFor(api: Api, key: SessionKey): SessionController {
  if (current && current.api === api && current.c.key === key && current.c.running) return current.c;
  current?.c.stop();
  const c = new SessionController(api, key, useAppStore.getState);
  current = { api, c };
  c.start();
  return c;
}

/** The early asks of the page's api (main.tsx hands them to openFromUrl): a session chosen later asks through them too. */
let early: { api: Api; askEarly: AskEarly } | null = null;

/**
 * A session chosen by an input (a click in the library, a link) asks its leaf view right behind
 * the open, as a reload does: the loader would ask it only once the open's answer is back, and on
 * a first read in steps the backend then starts reading to the active leaf (the file's end) one
 * round trip and one announced step later. Asked after the input's handler has set the selection
 * (a link selects its entry after the session), before React renders it; the loader takes the
 * answer when it asks the same, and cancels it otherwise (early-asks.ts).
 */
function askViewEarly(api: Api, key: SessionKey): void {
  const e = early;
  if (!e || e.api !== api) return;
  queueMicrotask(() => {
    const st = useAppStore.getState();
    if (st.sessionKey !== key || st.sessionInfo) return;
    e.askEarly('getLeafView', { ...leafRequestOf(st, key), pagedMessages: pagedOf(st) });
  });
}

function stopSession(c: SessionController): void {
  c.stop();
  if (current?.c === c) current = null;
}

/**
 * Applies the URL and opens the session it names, before the app's first render: a reload's
 * open leaves on the socket the page opened early (index.html) while React renders, instead of
 * after it. useSession's effect then takes on the controller started here. With `askEarly`, the
 * rows and the leaf view it will show are asked right behind the open (open-early.ts). True when
 * the URL named a session.
 */
export function openFromUrl(api: Api, askEarly?: AskEarly, win: Window = window): boolean {
  if (askEarly) early = { api, askEarly };
  restoreUrl(win);
  const key = useAppStore.getState().sessionKey;
  if (key) sessionFor(api, key);
  // Right behind the open: what the page shows first, so it does not wait for the open's answer.
  if (key && askEarly) askOpenEarly(askEarly, useAppStore.getState(), key);
  return key !== null;
}

/** Opens the selected session and applies its live events, in order (session-controller.ts). */
export function useSession(api: Api): void {
  const key = useAppStore((s) => s.sessionKey);
  // A session chosen (a click in the library) is opened at once, before the render: the effect
  // below then takes on the controller it started.
  useEffect(
    () =>
      setSessionStarter((k) => {
        sessionFor(api, k);
        askViewEarly(api, k);
      }),
    [api],
  );
  useEffect(() => keepCursorRow(useAppStore), []);
  useEffect(() => {
    if (!key) return;
    const c = sessionFor(api, key);
    return () => stopSession(c);
  }, [api, key]);
}
