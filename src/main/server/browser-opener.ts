/**
 * Opens a URL in the user's browser with the platform's opener. Best effort:
 * a headless machine has none, and the printed URL is the real way in.
 */
import { spawn } from 'node:child_process';

/** The opener command for a platform, with the URL as its own argument (never through a shell). */
export function openerCommand(platform: NodeJS.Platform, url: string): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

/** Starts the opener and forgets it; failures are silent. */
export function openInBrowser(url: string, platform: NodeJS.Platform = process.platform): void {
  const [cmd, args] = openerCommand(platform, url);
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No opener on this machine: the printed URL still works.
  }
}
