import type { DesktopFiles } from '../../shared/api';

/**
 * The desktop app's file opening (preload `window.vak.files`), or null in a browser: serve mode
 * opens only the files given with `serve --file`, since a page names no paths (docs/open-files.md).
 */
export function desktopFiles(win: Window = window): DesktopFiles | null {
  return (win as Window & { vak?: { files?: DesktopFiles } }).vak?.files ?? null;
}

/** What a browser says when asked to open a file. */
export const BROWSER_OPEN_TEXT =
  'Opening a file needs the desktop app (File → Open…, or drop it on its window). ' +
  'In a browser, serve it: vak-explorer serve --file PATH';
