/**
 * Every action of the app, in one list: the palette lists it, the keyboard dispatches
 * single keys through `actionForKey`. Each area adds its own array here.
 */
import type { Action } from './action';
import { contextActions } from './context-actions';

export const ACTIONS: readonly Action[] = [...contextActions];

/** The action a single key press runs, if one is bound to it (exact key, as KeyboardEvent.key). */
export function actionForKey(key: string): Action | null {
  return ACTIONS.find((a) => a.keys?.includes(key)) ?? null;
}

/** The action with this id. */
export function actionById(id: string): Action | null {
  return ACTIONS.find((a) => a.id === id) ?? null;
}
