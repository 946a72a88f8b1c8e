/**
 * A user action: one definition that the keyboard, the buttons, the keys overlay and the
 * command palette all use (issue 11 §5). Actions live in per-area files of this folder and
 * are listed together in `registry.ts`.
 */
import type { Api } from '../../shared/api';
import type { AppState } from '../store/types';

/** What an action runs with: the API, and the store's state at the moment it runs (intents included). */
export interface ActionContext {
  api: Api;
  state: AppState;
}

export interface Action {
  /** Stable id, e.g. `chart.toggle` (the palette remembers recent ones by id). */
  id: string;
  /** What the palette shows, e.g. "Toggle the context chart". */
  title: string;
  /** Keys as the keys overlay shows them (`g`, `$`); absent: palette and buttons only. */
  keys?: string[];
  /** Runs it; a promise settles when an asynchronous action (an export) is done. */
  run(ctx: ActionContext): void | Promise<void>;
  /** False when it cannot run now (no session open…); absent: always. */
  enabled?(state: AppState): boolean;
}
