import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createApi } from './api/create-api';
import { takeHttpEarly, withEarlyAsks } from './api/early-asks';
import { AFTER_FIRST_SCREEN, afterFirstScreen, holdUntil } from './api/hold-until';
import { readKeptRow } from './live/open-early';
import { openFromUrl } from './live/use-session';
import { preloadAfter } from './util/lazy-parts';
import { promiseWithin } from './util/settled-within';
import './styles/base.css';
import './styles/layout.css';
import './styles/tree.css';
import './styles/panes.css';
import './styles/bars.css';

// Before the socket opens: the page's first storage access is slow (open-early.ts).
readKeptRow();
const handle = createApi();
const { ready, connected } = handle;
// Serve mode: what index.html's first script asked over HTTP is taken from there (early-asks.ts).
const http = handle.transport === 'websocket' ? takeHttpEarly() : null;
const early = withEarlyAsks(handle.api, http);
const { askEarly } = early;
let firstScreen: () => void = () => undefined;
const firstScreenShown = new Promise<void>((resolve) => (firstScreen = resolve));
const api = holdUntil(early.api, firstScreenShown, AFTER_FIRST_SCREEN);
// The parts a first screen never draws (util/lazy-parts.tsx) are loaded after it, ready for a first use.
preloadAfter(firstScreenShown);

/** The longest a reload holds the library's requests for its first screen. */
const FIRST_SCREEN_CAP_MS = 1500;
/**
 * The longest a page opened on a session waits for its HTTP early answers before its first render.
 * They are usually in before this script runs; they come after it when a renderer that has just
 * started opens a link to a big session the server has not read yet. Past this, a stalled server
 * would leave the page blank.
 */
const FIRST_ANSWERS_CAP_MS = 400;

function render(): void {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App api={api} ready={ready} />
    </StrictMode>,
  );
}

// A page opened on a session (a reload, a link) asks for it before React's first render. Serve
// mode asked its first answers over HTTP in index.html's first script: the page renders once they
// are in. Rendered before, it would draw and lay out an empty shell first, then the session and
// its rows in a second render and layout; rendered after, one render and one layout draw both.
// Otherwise it renders once the request has left (the socket is then open): the first render
// (tens of ms in one task) runs while the backend answers, not before the request leaves. Its
// library is asked once the session's rows and panes are drawn (hold-until.ts); the chart waits
// for the panes' paint by itself.
if (openFromUrl(api, askEarly)) {
  void afterFirstScreen(early.settled('getLeafView'), FIRST_SCREEN_CAP_MS).then(firstScreen);
  if (http) void promiseWithin(http.answers, FIRST_ANSWERS_CAP_MS).then(render);
  else void connected.then(render);
} else {
  firstScreen();
  render();
}
