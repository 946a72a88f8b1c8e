/**
 * Keeps the secrets store current: the counts of every scanned session and the open session's
 * findings, asked again while a scan runs and whenever the open session grows.
 */
import { useEffect } from 'react';
import type { Api } from '../../shared/api';
import { useAppStore } from '../store/app-store';
import { useSecretsStore } from '../store/secrets-store';

/** While a scan runs its figures are asked for this often. */
const WHILE_SCANNING_MS = 500;

export function useSecretsSync(api: Api): void {
  const key = useAppStore((s) => s.sessionKey);
  // A new leaf view or an append: the scan may have found more.
  const seen = useAppStore((s) => s.leafView);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const ask = async () => {
      try {
        const counts = await api.getSecretCounts({});
        if (stopped) return;
        useSecretsStore.getState().setCounts(counts.sessions);
        let scanning = counts.sessions.some((c) => c.scanning);
        if (key) {
          const s = await api.getSecrets({ key, limit: 10000 });
          if (stopped) return;
          useSecretsStore.getState().setFindings(key, s.findings);
          scanning ||= s.scanning;
        }
        if (scanning) timer = setTimeout(() => void ask(), WHILE_SCANNING_MS);
      } catch {
        // Figures come back with the next change; a failed ask shows no stale count as new.
      }
    };
    void ask();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [api, key, seen]);
}

/** The text with every secret found in the session replaced by its marker (what a copy button copies). */
export async function redactedCopy(api: Api, key: string, text: string): Promise<string> {
  return (await api.redactTexts({ key, texts: [text] })).texts[0];
}
