/**
 * The user's setting for the background survey of sessions never opened (docs/secrets.md): read,
 * turned on or off for the backend that serves this window (every other client hears it too).
 * The library's checkbox and the palette's action both use it.
 */
import type { Api } from '../../shared/api';
import type { SecretSurveyState } from '../../shared/api-secrets';
import { useSecretsStore } from './secrets-store';

/** An API failure's message (an Error, or the plain `{code, message}` the preload bridge rejects with). */
function messageOf(e: unknown): string {
  const m = typeof e === 'object' && e !== null ? (e as { message?: unknown }).message : undefined;
  return typeof m === 'string' ? m : String(e);
}

/** The survey's state: as last heard, or asked now. */
export async function secretSurveyState(api: Api): Promise<SecretSurveyState> {
  const known = useSecretsStore.getState().survey;
  if (known) return known;
  const survey = await api.getSecretSurvey({});
  useSecretsStore.getState().setSurvey(survey);
  return survey;
}

/** What the setting means now, in a sentence (the checkbox's tooltip). */
export function surveyNotice(s: SecretSurveyState): string {
  const what = s.on
    ? 'Secrets in sessions never opened are counted in the background'
    : 'Secrets in sessions never opened are not counted (opened ones still are)';
  return `${what}${s.kept ? '.' : ', for this server (its next start follows --no-secret-survey).'}`;
}

/** Turns the survey on or off; a failure is said beside the setting (the library's foot). */
export async function setSecretSurvey(api: Api, on: boolean): Promise<void> {
  const store = useSecretsStore.getState();
  try {
    store.setSurvey(await api.setSecretSurvey({ on }));
    store.setSurveyProblem(null);
  } catch (e) {
    store.setSurveyProblem(`Not turned ${on ? 'on' : 'off'}: ${messageOf(e)}`);
  }
}
