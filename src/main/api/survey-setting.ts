import type { SecretCount, SecretSurveyState } from '../../shared/api-secrets';
import type { SecretSurvey } from '../secrets/survey';
import type { AppSettingsFile } from './app-settings';
import type { SurveyControl } from './secret-handlers';

/**
 * The user's setting for the secret survey over the running one: turning it on or off changes
 * the survey, keeps the choice (the desktop app's settings file; serve mode keeps none: its
 * `--no-secret-survey` sets the start) and tells every library subscriber (`announce`).
 */
export class SurveySetting implements SurveyControl {
  constructor(
    private readonly survey: SecretSurvey,
    private readonly settings: AppSettingsFile | null,
    private readonly announce: (state: SecretSurveyState) => void,
  ) {}

  /**
   * Whether the survey starts on: the kept choice when there is one, else `requested`
   * (the desktop app's default, or serve mode's flag).
   */
  static startsOn(settings: AppSettingsFile | null, requested: boolean): boolean {
    return settings?.read().secretSurvey ?? requested;
  }

  counts(): SecretCount[] {
    return this.survey.counts();
  }

  state(): SecretSurveyState {
    return { on: this.survey.isOn(), kept: this.settings !== null };
  }

  async set(on: boolean): Promise<SecretSurveyState> {
    const changed = this.survey.isOn() !== on;
    // Announced and kept once it took effect (off: the step in progress has ended).
    await this.survey.setOn(on);
    // (What holds now, not `on`: a call that came meanwhile may have set it back.)
    if (changed) {
      this.settings?.write({ secretSurvey: this.survey.isOn() });
      this.announce(this.state());
    }
    return this.state();
  }
}
