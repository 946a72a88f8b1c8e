import { useEffect } from 'react';
import type { Api, SessionKey } from '../../shared/api';
import type { AskEarly } from '../api/early-asks';
import { useAppStore } from '../store/app-store';
import { setSessionStarter } from '../store/session-slice';
import { restoreUrl } from '../store/use-url-sync';
import { jumpToEntry } from '../tree/tree-nav';
import { askOpenEarly, keepCursorRow, keptRowPage } from './open-early';
import { SessionController, type StartOptions } from './session-controller';

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

/** `how`: what was asked with the open (SessionController.start). */
function sessionFor(api: Api, key: SessionKey, how: StartOptions = {}): SessionController {
  if (current && current.api === api && current.c.key === key && current.c.running) return current.c;
  current?.c.stop();
  const c = new SessionController(api, key, useAppStore.getState);
  current = { api, c };
  c.start(how);
  return c;
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
  restoreUrl(win);
  const st = useAppStore.getState();
  const key = st.sessionKey;
  if (!key) return false;
  const keptPage = keptRowPage(st, key);
  // Without a row this tab kept, the tree opens on the active leaf (unless the URL names a leaf):
  // its page is asked with the open, as for a session chosen in the library.
  sessionFor(api, key, { activeLeafPage: keptPage === null, leafViewAsked: askEarly !== undefined });
  // Right behind the open: what the page shows first, so it does not wait for the open's answer.
  if (askEarly) askOpenEarly(askEarly, st, key, keptPage);
  return true;
}

/** Opens the selected session and applies its live events, in order (session-controller.ts). */
export function useSession(api: Api): void {
  const key = useAppStore((s) => s.sessionKey);
  // A session chosen (a click in the library) is opened at once, before the render: the effect
  // below then takes on the controller it started.
  // Chosen there, it opens on its active leaf unless the input names one: that leaf's page of tree
  // rows is asked with the open (session-controller.ts).
  useEffect(() => setSessionStarter((k) => void sessionFor(api, k, { activeLeafPage: true })), [api]);
  useEffect(() => keepCursorRow(useAppStore), []);
  useEffect(() => {
    if (!key) return;
    const c = sessionFor(api, key);
    return () => stopSession(c);
  }, [api, key]);
}
