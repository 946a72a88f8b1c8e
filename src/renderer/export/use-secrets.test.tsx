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

/** A backend whose scan of KEY is at `now`: asked once, then pushed as `secretCounts` events (`scan`). */
function scanApi(first: { count: number; scanning: boolean }) {
  const calls = { counts: 0, secrets: 0 };
  let now = first;
  const survey: SecretSurveyState = { on: true, kept: true };
  const listeners = new Set<(e: ApiEvent) => void>();
  const counts = (): SecretCounts => ({ sessions: [{ key: KEY, state: 'open', ...now }], survey: { ...survey } });
  const emit = (e: ApiEvent) => {
    for (const f of listeners) f(e);
  };
  const api = {
    getSecretCounts: async (): Promise<SecretCounts> => {
      calls.counts++;
      return counts();
    },
    onEvent: (f: (e: ApiEvent) => void) => {
      listeners.add(f);
      return () => listeners.delete(f);
    },
    /** What the backend pushes to library subscribers when the scan moved. */
    scan: (state: { count: number; scanning: boolean }) => {
      now = state;
      emit({ type: 'secretCounts', counts: counts() });
    },
    /** What the backend does when a client turns the survey: every library subscriber hears it. */
    turnSurvey: (on: boolean) => {
      survey.on = on;
      emit({ type: 'secretSurvey', survey: { ...survey } });
      emit({ type: 'secretCounts', counts: counts() });
    },
    restartReader: () => emit({ type: 'reader', change: 'restarted', reason: 'test' }),
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
  } as unknown as Api & {
    scan(state: { count: number; scanning: boolean }): void;
    turnSurvey(on: boolean): void;
    restartReader(): void;
  };
  return { api, calls };
}

describe('the secrets sync', () => {
  beforeEach(() => {
    resetAppStore();
    st().selectSession(KEY);
    st().sessionOpened({ activeLeaf: 'e1' } as SessionInfo);
  });

  it('asks no secrets when leaves are selected or entries appended, only when the pushed count moved', async () => {
    const { api, calls } = scanApi({ count: 1, scanning: false });
    renderHook(() => useSecretsSync(api));
    await waitFor(() => expect(calls.secrets).toBe(1));
    act(() => {
      for (const id of ['e1', 'e2', 'e3']) st().leafLoaded({ leafId: id } as unknown as LeafView, {} as LeafRequest);
    });
    act(() => st().sessionAppended({ entryCount: 2 } as SessionAppendPatch));
    act(() => api.scan({ count: 1, scanning: false }));
    expect(calls.secrets).toBe(1);
    act(() => api.scan({ count: 2, scanning: false }));
    await waitFor(() => expect(calls.secrets).toBe(2));
    expect(calls.counts).toBe(1);
  });

  it('while a scan runs the counts come pushed, asked once; the findings when the count moved', async () => {
    const { api, calls } = scanApi({ count: 0, scanning: true });
    renderHook(() => useSecretsSync(api));
    await waitFor(() => expect(calls.secrets).toBe(1));
    act(() => api.scan({ count: 0, scanning: true }));
    act(() => api.scan({ count: 2, scanning: true }));
    await waitFor(() => expect(calls.secrets).toBe(2));
    act(() => api.scan({ count: 2, scanning: false }));
    await waitFor(() => expect(useSecretsStore.getState().counts[KEY]?.scanning).toBe(false));
    expect(calls.secrets).toBe(2);
    expect(calls.counts).toBe(1);
    expect(Object.keys(useSecretsStore.getState().byEntry)).toEqual(['e0', 'e1']);
  });

  it('asks the counts once however long the session is read in steps', async () => {
    st().setProgress({ bytesRead: 10, bytesTotal: 100, entriesRead: 3 });
    const { api, calls } = scanApi({ count: 0, scanning: false });
    renderHook(() => useSecretsSync(api));
    await waitFor(() => expect(calls.secrets).toBe(1));
    act(() => st().setProgress({ bytesRead: 50, bytesTotal: 100, entriesRead: 3 }));
    act(() => st().setProgress(null));
    act(() => api.scan({ count: 0, scanning: false }));
    expect(calls.counts).toBe(1);
  });

  it('hears the survey turned off or on (by any client): its state at once, the counts as pushed', async () => {
    const { api, calls } = scanApi({ count: 1, scanning: false });
    renderHook(() => useSecretsSync(api));
    await waitFor(() => expect(useSecretsStore.getState().survey).toEqual({ on: true, kept: true }));
    act(() => api.turnSurvey(false));
    expect(useSecretsStore.getState().survey).toEqual({ on: false, kept: true });
    act(() => api.turnSurvey(true));
    expect(useSecretsStore.getState().survey?.on).toBe(true);
    expect(calls.counts).toBe(1);
  });

  it('asks the counts again when the reader restarted (what it pushed meanwhile may be lost)', async () => {
    const { api, calls } = scanApi({ count: 1, scanning: false });
    renderHook(() => useSecretsSync(api));
    await waitFor(() => expect(calls.counts).toBe(1));
    act(() => api.restartReader());
    await waitFor(() => expect(calls.counts).toBe(2));
  });
});
