/**
 * The user's setting "Count secrets in sessions never opened": the background survey of the home
 * (docs/secrets.md), as a checkbox at the foot of the library (the palette has the same action).
 */
import { useEffect } from 'react';
import { useApi } from '../api/api-context';
import { secretSurveyState, setSecretSurvey, surveyNotice } from '../store/secret-survey';
import { useSecretsStore } from '../store/secrets-store';

export const SURVEY_SETTING_LABEL = 'Count secrets in sessions never opened';

/** The checkbox (a native one: Tab reaches it, Space turns it). */
export function SecretSurveyToggle() {
  const api = useApi();
  const survey = useSecretsStore((s) => s.survey);
  const problem = useSecretsStore((s) => s.surveyProblem);
  useEffect(() => {
    // (Usually known from the first counts already; asked once when not.)
    if (useSecretsStore.getState().survey === null) void secretSurveyState(api).catch(() => undefined);
  }, [api]);
  return (
    <>
      <label className="survey-setting" title={survey ? surveyNotice(survey) : SURVEY_SETTING_LABEL}>
        <input
          type="checkbox"
          checked={survey?.on ?? false}
          disabled={survey === null}
          onChange={(e) => void setSecretSurvey(api, e.target.checked)}
        />
        {SURVEY_SETTING_LABEL}
      </label>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </>
  );
}
