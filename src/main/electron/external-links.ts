/**
 * Links out of the app (a URL in a ledger message, say) go to the user's
 * browser, and only plain http(s) ones: shell.openExternal hands the string to
 * the OS, where file:, smb: or a custom handler could run something.
 */
import { shell } from 'electron';

/** True for an absolute http(s) URL with a host and no credentials. */
export function isSafeExternalUrl(raw: string): boolean {
  if (raw.length > 4096) return false;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return false;
  }
  return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '' && !u.username && !u.password;
}

/** Opens a URL in the default browser when it passes `isSafeExternalUrl`; reports whether it did. */
export function openExternalIfSafe(raw: string): boolean {
  if (!isSafeExternalUrl(raw)) return false;
  // The re-serialised URL, so the OS sees exactly what was checked.
  shell.openExternal(new URL(raw).href).catch(() => {});
  return true;
}
