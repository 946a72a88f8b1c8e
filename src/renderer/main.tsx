import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createApi } from './api/create-api';
import './styles/base.css';
import './styles/layout.css';
import './styles/tree.css';
import './styles/panes.css';
import './styles/bars.css';

const { api, ready } = createApi();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App api={api} ready={ready} />
  </StrictMode>,
);
