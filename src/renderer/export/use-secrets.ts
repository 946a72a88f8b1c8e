/**
 * Keeps the secrets store current: the counts of every session (scanned as opened, or by the
 * background survey of unopened ones) and the open session's findings. The counts are asked once,
 * then followed as the backend pushes them (`secretCounts` events to library subscribers, sent when
 * a scan or the survey moved them); asked again only when the reader restarted (pushes may have
 * been lost with it). The open session's findings are asked when its count moved, or when another
 * session or reading of it is shown, so selecting leaves asks nothing.
 */
import { useEffect, useRef } from 'react';
import type { Api } from '../../shared/api';
import type { SecretCounts } from '../../shared/api-secrets';
import { useAppStore } from '../store/app-store';
import { useSecretsStore } from '../store/secrets-store';

/** The findings held: of which session and reading, at which count. */
interface Held {
  key: string;
  treeVersion: number;
  count: number;
}

export function useSecretsSync(api: Api): void {
  const key = useAppStore((s) => s.sessionKey);
  // A re-read: the scan starts over, the findings held are of the last reading.
  const treeVersion = useAppStore((s) => s.treeVersion);
  // Its findings are asked once its open answered: not beside the open, which asks for the screen.
  const opened = useAppStore((s) => s.sessionInfo !== null);
  const held = useRef<Held | null>(null);
  /** The counts last heard (asked or pushed), null until the first answer. */
  const heard = useRef<SecretCounts | null>(null);
  /** Findings asked and not answered yet (for that key and reading). */
  const asking = useRef<{ key: string; treeVersion: number } | null>(null);
  // Set by the effect below: asks the open session's findings when the counts say they moved.
  const sync = useRef<() => void>(() => undefined);

  useEffect(() => {
    let stopped = false;
    const findings = async (k: string, version: number): Promise<void> => {
      asking.current = { key: k, treeVersion: version };
      try {
        const s = await api.getSecrets({ key: k, limit: 10000 });
        if (stopped) return;
        useSecretsStore.getState().setFindings(k, s.findings);
        held.current = { key: k, treeVersion: version, count: s.count };
      } catch {
        // Asked again when the count moves next; a failed ask shows no stale finding as new.
      } finally {
        if (asking.current?.key === k && asking.current.treeVersion === version) asking.current = null;
      }
      if (!stopped) sync.current();
    };
    sync.current = () => {
      const app = useAppStore.getState();
      const k = app.sessionKey;
      const counts = heard.current;
      if (!k || !counts || app.sessionInfo === null) return;
      const version = app.treeVersion;
      if (asking.current?.key === k && asking.current.treeVersion === version) return; // (looked at once answered)
      const h = held.current;
      const mine = counts.sessions.find((c) => c.key === k);
      // First asked for this session and reading (with no scanner yet, asking opens the session,
      // which starts its scan), then again when its count moved.
      const same = h !== null && h.key === k && h.treeVersion === version;
      if (!same || (mine !== undefined && mine.count !== h.count)) void findings(k, version);
    };
    const take = (counts: SecretCounts): void => {
      heard.current = counts;
      useSecretsStore.getState().setCounts(counts.sessions, counts.survey ?? null);
      sync.current();
    };
    const ask = (): void => {
      api.getSecretCounts({}).then(
        (counts) => !stopped && take(counts),
        () => undefined, // (the next push brings them)
      );
    };
    const offEvent = api.onEvent((e) => {
      if (stopped) return;
      if (e.type === 'secretCounts') take(e.counts);
      else if (e.type === 'secretSurvey') useSecretsStore.getState().setSurvey(e.survey);
      else if (e.type === 'reader' && e.change === 'restarted') ask();
    });
    ask();
    return () => {
      stopped = true;
      offEvent();
    };
  }, [api]);

  // Another session shown (once opened), or the same read again: its findings are asked (once the counts are known).
  useEffect(() => sync.current(), [key, treeVersion, opened]);
}

/** The text with every secret found in the session replaced by its marker (what a copy button copies). */
export async function redactedCopy(api: Api, key: string, text: string): Promise<string> {
  return (await api.redactTexts({ key, texts: [text] })).texts[0];
}
