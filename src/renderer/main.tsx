import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createApi } from './api/create-api';
import { withEarlyAsks } from './api/early-asks';
import { openFromUrl } from './live/use-session';
import './styles/base.css';
import './styles/layout.css';
import './styles/tree.css';
import './styles/panes.css';
import './styles/bars.css';

const handle = createApi();
const { ready, connected } = handle;
const { api, askEarly } = withEarlyAsks(handle.api);

function render(): void {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App api={api} ready={ready} />
    </StrictMode>,
  );
}

// A page opened on a session (a reload, a link) asks for it before React's first render, and
// renders once that request has left (the socket index.html opened is then open): the first
// render (tens of ms in one task) runs while the backend answers, not before the request leaves.
if (openFromUrl(api, askEarly)) void connected.then(render);
else render();
