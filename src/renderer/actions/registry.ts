/**
 * Every action of the app, in one list: the keyboard dispatches key chords through
 * `actionForKey`, the keys overlay lists the ones with keys, the palette lists them all.
 * Each area adds its own array here, under the heading its actions are listed with.
 */
import type { Action } from './action';
import { appActions } from './app-actions';
import { contextActions } from './context-actions';
import { fileActions } from './file-actions';
import { navActions } from './nav-actions';
import { viewActions } from './view-actions';

/** An action as registered: with the heading it is listed under. */
export type RegisteredAction = Action & { group: string };

const inGroup = (group: string, actions: readonly Action[]): RegisteredAction[] =>
  actions.map((a) => ({ ...a, group: a.group ?? group }));

export const ACTIONS: readonly RegisteredAction[] = [
  ...inGroup('General', appActions),
  ...inGroup('Navigate', navActions),
  ...inGroup('Plan and view', viewActions),
  ...inGroup('Context, cost, export', contextActions),
  ...inGroup('Files', fileActions),
];

/** The headings, in the order they are listed. */
export const ACTION_GROUPS: readonly string[] = [...new Set(ACTIONS.map((a) => a.group))];

/** The action a key chord (keyboard/key-map.ts) runs, if one is bound to it. */
export function actionForKey(chord: string): RegisteredAction | null {
  return ACTIONS.find((a) => a.keys?.includes(chord)) ?? null;
}

/** The action with this id. */
export function actionById(id: string): RegisteredAction | null {
  return ACTIONS.find((a) => a.id === id) ?? null;
}
