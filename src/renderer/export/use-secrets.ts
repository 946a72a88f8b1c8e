/**
 * Keeps the secrets store current: the counts of every session (scanned as opened, or by the
 * background survey of unopened ones) and the open session's findings. Asked when a session
 * opens, is read again or grows, and while a scan runs, the survey has work or the session is
 * still being read, and when the survey is turned on or off (a `secretSurvey` event: this window
 * or another client of the server). A poll is one cheap call (the counts); the open session's
 * findings are asked again only when its count moved, so selecting leaves asks nothing.
 */
import { useEffect, useRef } from 'react';
import type { Api } from '../../shared/api';
import { useAppStore } from '../store/app-store';
import { useSecretsStore } from '../store/secrets-store';

/** While a scan runs its figures are asked for this often. */
const WHILE_SCANNING_MS = 500;
/** While the background survey of unopened sessions has more to do (it works only in the client's lulls). */
const WHILE_SURVEYING_MS = 2000;

export function useSecretsSync(api: Api): void {
  const key = useAppStore((s) => s.sessionKey);
  // A re-read or an append: the scan has more lines, it may find more.
  const treeVersion = useAppStore((s) => s.treeVersion);
  const appendVersion = useAppStore((s) => s.appendVersion);
  // The count the held findings were asked at, for this session and reading (an append keeps them).
  const held = useRef<{ key: string | null; treeVersion: number; count: number } | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    if (held.current?.key !== key || held.current.treeVersion !== treeVersion) held.current = null;
    const ask = async () => {
      try {
        const counts = await api.getSecretCounts({});
        if (stopped) return;
        useSecretsStore.getState().setCounts(counts.sessions, counts.survey ?? null);
        let scanning = counts.sessions.some((c) => c.scanning && c.state === 'open');
        const surveying = counts.sessions.some((c) => c.state === 'surveying' || c.state === 'pending');
        if (key) {
          const mine = counts.sessions.find((c) => c.key === key);
          // No scanner yet: asking the findings opens the session, which starts its scan.
          if (!mine || mine.count !== held.current?.count) {
            const s = await api.getSecrets({ key, limit: 10000 });
            if (stopped) return;
            useSecretsStore.getState().setFindings(key, s.findings);
            held.current = { key, treeVersion, count: s.count };
            scanning ||= s.scanning;
          }
          // A session read in steps hands its scan lines as it goes: the scan may rest between steps.
          scanning ||= Boolean(useAppStore.getState().progress);
        }
        if (scanning || surveying)
          timer = setTimeout(() => void ask(), scanning ? WHILE_SCANNING_MS : WHILE_SURVEYING_MS);
      } catch {
        // Figures come back with the next change; a failed ask shows no stale count as new.
      }
    };
    void ask();
    const offEvent = api.onEvent((e) => {
      if (e.type !== 'secretSurvey' || stopped) return;
      useSecretsStore.getState().setSurvey(e.survey);
      if (timer) clearTimeout(timer);
      timer = null;
      void ask();
    });
    return () => {
      stopped = true;
      offEvent();
      if (timer) clearTimeout(timer);
    };
  }, [api, key, treeVersion, appendVersion]);
}

/** The text with every secret found in the session replaced by its marker (what a copy button copies). */
export async function redactedCopy(api: Api, key: string, text: string): Promise<string> {
  return (await api.redactTexts({ key, texts: [text] })).texts[0];
}
