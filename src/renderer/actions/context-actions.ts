/** Actions of the context chart, the cost panel, exports and copies. */
import {
  confirmUnredacted,
  copyProjectedContext,
  saveProjection,
  saveSessionHtml,
  hasSession,
} from '../export/exports';
import { secretsActions } from './secrets-actions';
import type { Action } from './action';

export const contextActions: readonly Action[] = [
  {
    id: 'chart.toggle',
    title: 'Show or hide the context chart',
    keys: ['g'],
    run: ({ state }) => state.toggleChart(),
  },
  {
    id: 'fate.toggle',
    title: 'Fate of the pinned entry: how it reached the model at every later turn end',
    keys: ['F'],
    run: ({ state }) => state.toggleFate(),
    enabled: hasSession,
  },
  {
    id: 'panel.cost',
    title: 'Cost panel: tokens and cost per turn and session',
    keys: ['$'],
    run: ({ state }) => state.togglePanel('cost'),
  },
  {
    id: 'export.html',
    title: 'Export the session as a self-contained HTML file',
    run: ({ api, state }) => saveSessionHtml(api, state),
    enabled: hasSession,
  },
  {
    id: 'export.json',
    title: 'Export the projected context as JSON',
    run: ({ api, state }) => saveProjection(api, state, 'json'),
    enabled: hasSession,
  },
  {
    id: 'export.markdown',
    title: 'Export the projected context as Markdown',
    run: ({ api, state }) => saveProjection(api, state, 'markdown'),
    enabled: hasSession,
  },
  {
    id: 'copy.projected',
    title: 'Copy the projected context (JSON)',
    run: ({ api, state }) => copyProjectedContext(api, state),
    enabled: hasSession,
  },
  ...secretsActions(confirmUnredacted),
];
