import { useEffect } from 'react';
import type { Api, ApiEvent, OpenFileOutcome } from '../../shared/api';
import { useAppStore } from '../store/app-store';
import { BROWSER_OPEN_TEXT, desktopFiles } from '../util/desktop-files';

/** Why some files were not opened, in one notice (null: all were). */
export function refusalNotice(outcomes: readonly OpenFileOutcome[]): string | null {
  const problems = outcomes.flatMap((o) => ('problem' in o ? [o.problem] : []));
  return problems.length === 0 ? null : problems.join('\n');
}

/**
 * Files opened by path: the Recent list (loaded now, and again after each opening), the outcome of
 * an opening (`opened`: the first file opened is shown, refusals are said), and drops on the
 * window — handed to the desktop app, which takes their real paths; a browser says how to open one.
 */
export function useOpenedFiles(api: Api, win: Window = window): void {
  useEffect(() => {
    let live = true;
    const st = useAppStore.getState;
    const loadRecent = () =>
      api.listRecentFiles({}).then(
        (r) => live && st().recentLoaded(r),
        () => undefined, // an older backend, or none yet: no Recent list
      );
    void loadRecent();
    const off = api.onEvent((e: ApiEvent) => {
      if (e.type !== 'opened') return;
      const first = e.outcomes.find((o) => 'key' in o);
      if (first && 'key' in first) st().selectSession(first.key);
      st().showFileNotice(refusalNotice(e.outcomes));
      void loadRecent();
    });
    const onDragOver = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault(); // (else the drop is the browser's: it would navigate to the file)
      e.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (e: DragEvent) => {
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length === 0) return;
      e.preventDefault();
      const desktop = desktopFiles(win);
      if (desktop) desktop.openDropped(files);
      else st().showFileNotice(BROWSER_OPEN_TEXT);
    };
    win.addEventListener('dragover', onDragOver);
    win.addEventListener('drop', onDrop);
    return () => {
      live = false;
      off();
      win.removeEventListener('dragover', onDragOver);
      win.removeEventListener('drop', onDrop);
    };
  }, [api, win]);
}
