// @vitest-environment jsdom
import { act, renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Api, ApiEvent, LeafView, SessionInfo } from '../../shared/api';
import type { SecretCounts, SecretSurveyState, SessionSecrets } from '../../shared/api-secrets';
import type { LeafRequest } from '../../shared/leaf-request';
import { resetAppStore, useAppStore } from '../store/app-store';
import type { SessionAppendPatch } from '../store/types';
import { useSecretsStore } from '../store/secrets-store';
import { useSecretsSync } from './use-secrets';

const st = useAppStore.getState;
const KEY = 'k1';

/** A backend whose scan of KEY goes through `states` (one per counts poll, the last one kept). */
function scanApi(states: { count: number; scanning: boolean }[]) {
  const calls = { counts: 0, secrets: 0 };
  let now = states[0];
  const survey: SecretSurveyState = { on: true, kept: true };
  const listeners = new Set<(e: ApiEvent) => void>();
  const api = {
    getSecretCounts: async (): Promise<SecretCounts> => {
      now = states[Math.min(calls.counts++, states.length - 1)];
      return { sessions: [{ key: KEY, state: 'open', ...now }], survey: { ...survey } };
    },
    onEvent: (f: (e: ApiEvent) => void) => {
      listeners.add(f);
      return () => listeners.delete(f);
    },
    /** What the backend does when a client turns the survey: every library subscriber hears it. */
    turnSurvey: (on: boolean) => {
      survey.on = on;
      for (const f of listeners) f({ type: 'secretSurvey', survey: { ...survey } });
    },
    getSecrets: async (): Promise<SessionSecrets> => {
      calls.secrets++;
      const findings = Array.from({ length: now.count }, (_, i) => ({
        entryId: `e${i}`,
        line: i + 1,
        field: 'text',
        rule: 'r',
        kind: 'github-token',
        start: 0,
        end: 4,
        lineBytes: null,
      }));
      return { key: KEY, ...now, fromLine: 1, kinds: {}, findings, clipped: false };
    },
  } as unknown as Api & { turnSurvey(on: boolean): void };
  return { api, calls };
}

describe('the secrets sync', () => {
  beforeEach(() => {
    resetAppStore();
    st().selectSession(KEY);
    st().sessionOpened({ activeLeaf: 'e1' } as SessionInfo);
  });

  it('asks no secrets when leaves are selected once the counts are known, again on an append', async () => {
    const { api, calls } = scanApi([{ count: 1, scanning: false }]);
    renderHook(() => useSecretsSync(api));
    await waitFor(() => expect(calls.secrets).toBe(1));
    act(() => {
      for (const id of ['e1', 'e2', 'e3']) st().leafLoaded({ leafId: id } as unknown as LeafView, {} as LeafRequest);
    });
    // An append asks again; the leaves selected before it would have asked first.
    act(() => st().sessionAppended({ entryCount: 2 } as SessionAppendPatch));
    await waitFor(() => expect(calls.counts).toBe(2));
    expect(calls.secrets).toBe(1);
  });

  it('while a scan runs a poll asks the counts only; the findings when the count moved', async () => {
    const { api, calls } = scanApi([
      { count: 0, scanning: true },
      { count: 0, scanning: true },
      { count: 2, scanning: true },
      { count: 2, scanning: false },
    ]);
    renderHook(() => useSecretsSync(api));
    await waitFor(() => expect(calls.counts).toBe(4));
    expect(calls.secrets).toBe(2);
    expect(Object.keys(useSecretsStore.getState().byEntry)).toEqual(['e0', 'e1']);
  });

  it('keeps asking while the session is still being read, though its scan rests between steps', async () => {
    st().setProgress({ bytesRead: 10, bytesTotal: 100 });
    const { api, calls } = scanApi([{ count: 0, scanning: false }]);
    renderHook(() => useSecretsSync(api));
    await waitFor(() => expect(calls.counts).toBe(2));
    act(() => st().setProgress(null));
    expect(calls.secrets).toBe(1);
  });

  it('hears the survey turned off or on (by any client): the state at once, the counts asked again', async () => {
    const { api, calls } = scanApi([{ count: 1, scanning: false }]);
    renderHook(() => useSecretsSync(api));
    await waitFor(() => expect(useSecretsStore.getState().survey).toEqual({ on: true, kept: true }));
    const asked = calls.counts;
    act(() => api.turnSurvey(false));
    expect(useSecretsStore.getState().survey).toEqual({ on: false, kept: true });
    await waitFor(() => expect(calls.counts).toBe(asked + 1));
    act(() => api.turnSurvey(true));
    await waitFor(() => expect(calls.counts).toBe(asked + 2));
    expect(useSecretsStore.getState().survey?.on).toBe(true);
  });
});
