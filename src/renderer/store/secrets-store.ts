/**
 * What the backend found of secrets: counts per session (library rows, the session card) and
 * the open session's findings by entry (marks in the History and the Projected pane). Kinds
 * and places only: the renderer never holds a secret's text.
 */
import { create } from 'zustand';
import type { SecretCount, SecretFinding } from '../../shared/api-secrets';

interface SecretsState {
  counts: Record<string, SecretCount>;
  /** The open session's findings, by entry id. */
  key: string | null;
  byEntry: Record<string, SecretFinding[]>;
  setCounts(list: SecretCount[]): void;
  setFindings(key: string, findings: SecretFinding[]): void;
}

export const useSecretsStore = create<SecretsState>((set) => ({
  counts: Object.create(null) as Record<string, SecretCount>,
  key: null,
  byEntry: Object.create(null) as Record<string, SecretFinding[]>,
  setCounts: (list) => {
    const counts = Object.create(null) as Record<string, SecretCount>;
    for (const c of list) counts[c.key] = c;
    set({ counts });
  },
  setFindings: (key, findings) => {
    const byEntry = Object.create(null) as Record<string, SecretFinding[]>;
    for (const f of findings) (byEntry[f.entryId] ??= []).push(f);
    set({ key, byEntry });
  },
}));

const NONE: SecretFinding[] = [];

/** The findings of one entry of the open session (a stable empty list when none). */
export function useEntrySecrets(entryId: string): SecretFinding[] {
  return useSecretsStore((s) => s.byEntry[entryId] ?? NONE);
}

/** "2 secrets: github-token, aws-secret-access-key" (kinds, never the secrets). */
export function secretsLabel(findings: readonly SecretFinding[]): string {
  const kinds = [...new Set(findings.map((f) => f.kind))];
  return `${findings.length} secret${findings.length === 1 ? '' : 's'}: ${kinds.join(', ')}`;
}
