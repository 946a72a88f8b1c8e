/**
 * The window never leaves its page: navigations and redirects away from our
 * origin are cancelled, new windows and <webview>s are refused, and http(s)
 * links go to the user's browser instead.
 */
import type { WebContents } from 'electron';
import { openExternalIfSafe } from './external-links';

const guarded = new WeakSet<WebContents>();

/** Installs the navigation, redirect, new-window and webview guards on one webContents (once). */
export function guardNavigation(contents: WebContents, isOwnUrl: (url: string) => boolean): void {
  // Main guards every webContents on creation and the window again: twice would open links twice.
  if (guarded.has(contents)) return;
  guarded.add(contents);
  // The renderer is a single page: a navigation is always a link or a script trying to leave.
  contents.on('will-navigate', (event) => {
    event.preventDefault();
    if (!isOwnUrl(event.url)) openExternalIfSafe(event.url);
  });
  contents.on('will-redirect', (event) => {
    if (!isOwnUrl(event.url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (!isOwnUrl(url)) openExternalIfSafe(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
