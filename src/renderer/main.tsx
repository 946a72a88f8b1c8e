import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createApi } from './api/create-api';
import { openFromUrl } from './live/use-session';
import './styles/base.css';
import './styles/layout.css';
import './styles/tree.css';
import './styles/panes.css';
import './styles/bars.css';

const { api, ready } = createApi();
// A page opened on a session (a reload, a link) asks for it before React's first render.
openFromUrl(api);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App api={api} ready={ready} />
  </StrictMode>,
);
