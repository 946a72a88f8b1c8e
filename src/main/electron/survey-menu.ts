/**
 * The app menu's "Count Secrets in Sessions Never Opened" checkbox, kept in step with the backend:
 * the same setting as the library's checkbox and the palette's action (one state, the backend's).
 * The main process listens as one more library subscriber, so a change made in a window moves the
 * menu's tick too, and a click sends `setSecretSurvey` once (never retried: the answer or the event
 * that follows sets the tick).
 */
import type { ApiEvent } from '../../shared/api';
import type { SecretSurveyState } from '../../shared/api-secrets';
import type { ApiBackend, ApiClient } from '../api/api-backend';

/** What the menu shows: null until the backend has said (the item is then disabled). */
export type SurveyMenuState = SecretSurveyState | null;

export class SurveyMenuSync {
  private state: SurveyMenuState = null;
  private readonly client: ApiClient;
  private stopped = false;

  /** `changed` rebuilds the menu with the new state (and is called once the first state is known). */
  constructor(
    private readonly backend: ApiBackend,
    private readonly changed: (state: SurveyMenuState) => void,
  ) {
    this.client = { id: 'app-menu', push: (event) => this.heard(event) };
  }

  /** Subscribes, then asks the state (an event between the two only makes the tick newer). */
  async start(): Promise<void> {
    await this.backend.call('subscribe', { topic: 'library' }, this.client);
    const state = (await this.backend.call('getSecretSurvey', {}, this.client)) as SecretSurveyState;
    this.set(state);
  }

  current(): SurveyMenuState {
    return this.state;
  }

  /**
   * The user clicked the item (Electron has already flipped its own tick): ask for `on`. On failure
   * the menu is drawn again with the backend's state, which did not change, and the reason is returned.
   */
  async toggle(on: boolean): Promise<string | null> {
    try {
      this.set((await this.backend.call('setSecretSurvey', { on }, this.client)) as SecretSurveyState);
      return null;
    } catch (e) {
      this.set(this.state);
      return e instanceof Error ? e.message : String(e);
    }
  }

  stop(): void {
    this.stopped = true;
    this.backend.disconnect(this.client);
  }

  private heard(event: ApiEvent): void {
    if (event.type === 'secretSurvey') this.set(event.survey);
  }

  private set(state: SurveyMenuState): void {
    if (this.stopped) return;
    this.state = state;
    this.changed(state);
  }
}
