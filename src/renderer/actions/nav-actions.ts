/** Moving through the session tree (the tree's keys, also in the palette). */
import { navigate, type NavCommand } from '../tree/tree-nav';
import type { Action } from './action';
import { hasOpenSession } from './enabled';

const nav = (id: NavCommand, title: string, keys: string[]): Action => ({
  id: `nav.${id}`,
  title,
  keys,
  run: ({ api }) => navigate(api, id),
  enabled: hasOpenSession,
});

export const navActions: readonly Action[] = [
  nav('down', 'Next row', ['j', 'ArrowDown']),
  nav('up', 'Previous row', ['k', 'ArrowUp']),
  nav('pageDown', 'A page of rows down', ['PageDown']),
  nav('pageUp', 'A page of rows up', ['PageUp']),
  nav('parent', 'Parent entry', ['h', 'ArrowLeft']),
  nav('child', 'First child', ['l', 'ArrowRight']),
  nav('prevSibling', 'Previous sibling branch', ['[']),
  nav('nextSibling', 'Next sibling branch', [']']),
  nav('root', 'Go to the root', ['Home']),
  nav('active', 'Go to the active leaf', ['End']),
  {
    id: 'session.follow',
    title: 'Follow the newest leaf (on / off)',
    keys: ['f'],
    run: ({ state }) => state.toggleFollow(),
  },
];
