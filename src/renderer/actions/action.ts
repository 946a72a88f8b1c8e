/**
 * A user action: one definition that the keyboard, the buttons, the keys overlay and the
 * command palette all use. Actions live in per-area files of this folder and
 * are listed together in `registry.ts`.
 */
import type { Api } from '../../shared/api';
import type { AppState } from '../store/types';

/** What an action runs with: the API, and the store's state at the moment it runs (intents included). */
export interface ActionContext {
  api: Api;
  state: AppState;
  /** What the user typed at the action's prompt (actions with `prompt` only). */
  input?: string;
}

/** An action that asks for a value first (the palette shows the prompt, e.g. a window size). */
export interface ActionPrompt {
  /** What to type, e.g. "Context window in tokens". */
  label: string;
  /** The value the prompt starts with (the current one). */
  initial(state: AppState): string;
  /** Why `input` cannot be used now, or null when it can. */
  check(input: string, state: AppState): string | null;
}

export interface Action {
  /** Stable id, e.g. `chart.toggle` (the palette remembers recent ones by id). */
  id: string;
  /** What the palette shows, e.g. "Toggle the context chart". */
  title: string;
  /**
   * Key chords that run it (key-map.ts): a `KeyboardEvent.key` (`g`, `$`, `ArrowDown`), or
   * with modifiers `Mod+Shift+F` (Mod = Ctrl, ⌘ on a Mac); absent: palette and buttons only.
   */
  keys?: string[];
  /** Heading it is listed under (keys overlay, palette); absent: its area's, set in registry.ts. */
  group?: string;
  /** Asks for a value before it runs (palette). */
  prompt?: ActionPrompt;
  /** Runs it; a promise settles when an asynchronous action (an export) is done. */
  run(ctx: ActionContext): void | Promise<void>;
  /** False when it cannot run now (no session open…); absent: always. */
  enabled?(state: AppState): boolean;
}
