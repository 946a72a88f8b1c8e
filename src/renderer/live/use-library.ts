import { useEffect } from 'react';
import type { Api, ApiEvent } from '../../shared/api';
import { describeError } from '../api/api-methods';
import { useAppStore } from '../store/app-store';
import { subscribeUntilStopped } from './subscription';

/** Loads the home and its sessions, and keeps the list live through the library subscription. */
export function useLibrary(api: Api, ready: () => void): void {
  useEffect(() => {
    let live = true;
    const st = useAppStore.getState;
    const off = api.onEvent((e: ApiEvent) => {
      if (e.type === 'library') st().applyLibraryEvent(e);
    });
    ready();
    Promise.all([api.getHome({}), api.listSessions({})]).then(
      ([home, sessions]) => live && st().libraryLoaded(home, sessions),
      (e: unknown) => live && st().libraryFailed(describeError(e)),
    );
    const unsubscribe = subscribeUntilStopped(api, { topic: 'library' });
    return () => {
      live = false;
      off();
      unsubscribe();
    };
  }, [api, ready]);
}
