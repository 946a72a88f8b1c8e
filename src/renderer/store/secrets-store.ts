/**
 * What the backend found of secrets: counts per session (library rows, the session card) and
 * the open session's findings by entry (marks in the History and the Projected pane). Kinds
 * and places only: the renderer never holds a secret's text.
 */
import { create } from 'zustand';
import type { SecretCount, SecretFinding, SecretSurveyState } from '../../shared/api-secrets';

interface SecretsState {
  counts: Record<string, SecretCount>;
  /** The survey of sessions never opened, as the backend last said (null: not asked yet). */
  survey: SecretSurveyState | null;
  /** Why the last change of the survey's setting failed (shown beside the setting), or null. */
  surveyProblem: string | null;
  /** The open session's findings, by entry id. */
  key: string | null;
  byEntry: Record<string, SecretFinding[]>;
  setCounts(list: SecretCount[], survey: SecretSurveyState | null): void;
  /** The survey was turned on or off (by this window, or another client of the server). */
  setSurvey(survey: SecretSurveyState): void;
  setSurveyProblem(problem: string | null): void;
  setFindings(key: string, findings: SecretFinding[]): void;
}

export const useSecretsStore = create<SecretsState>((set) => ({
  counts: Object.create(null) as Record<string, SecretCount>,
  survey: null,
  surveyProblem: null,
  key: null,
  byEntry: Object.create(null) as Record<string, SecretFinding[]>,
  setCounts: (list, survey) =>
    set((s) => {
      // A session whose count did not move keeps its object: its library row does not draw again.
      const counts = Object.create(null) as Record<string, SecretCount>;
      for (const c of list) {
        const was = s.counts[c.key];
        counts[c.key] = was && sameCount(was, c) ? was : c;
      }
      return { counts, survey };
    }),
  setSurvey: (survey) => set({ survey }),
  setSurveyProblem: (surveyProblem) => set({ surveyProblem }),
  setFindings: (key, findings) => {
    const byEntry = Object.create(null) as Record<string, SecretFinding[]>;
    for (const f of findings) (byEntry[f.entryId] ??= []).push(f);
    set({ key, byEntry });
  },
}));

const NONE: SecretFinding[] = [];

function sameCount(a: SecretCount, b: SecretCount): boolean {
  return a.count === b.count && a.scanning === b.scanning && a.state === b.state;
}

/**
 * What a library row says of a session's secrets: its count (opened, or surveyed), or that it is
 * not counted because the survey of sessions never opened is off (never a count kept from before,
 * which no one checks against the file any more), or nothing yet.
 */
export function useRowSecrets(key: string): SecretCount | 'not-counted' | undefined {
  return useSecretsStore((s) => {
    const c = s.counts[key];
    if (s.survey?.on === false && c?.state !== 'open') return 'not-counted';
    return c;
  });
}

/** The findings of one entry of the open session (a stable empty list when none). */
export function useEntrySecrets(entryId: string): SecretFinding[] {
  return useSecretsStore((s) => s.byEntry[entryId] ?? NONE);
}

/** "2 secrets: github-token, aws-secret-access-key" (kinds, never the secrets). */
export function secretsLabel(findings: readonly SecretFinding[]): string {
  const kinds = [...new Set(findings.map((f) => f.kind))];
  return `${findings.length} secret${findings.length === 1 ? '' : 's'}: ${kinds.join(', ')}`;
}
