/** "3 min ago", "2 h ago", "5 d ago" — short and stable enough for a list. */
export function relativeTime(ms: number, now: number = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 36) return `${h} h ago`;
  const d = Math.round(h / 24);
  if (d < 60) return `${d} d ago`;
  return new Date(ms).toISOString().slice(0, 10);
}

/** 41230 → "41,230". */
export const fmtInt = (n: number): string => n.toLocaleString('en-US');

/** The time of day of an RFC 3339 stamp, "09:41:07". */
export function timeOfDay(ts: string): string {
  const m = /T(\d\d:\d\d:\d\d)/.exec(ts);
  return m ? m[1] : ts;
}

/** Byte sizes read the same in the previews the core writes and in the renderer. */
export { formatBytes } from '../../shared/format-bytes';

/** Shortens an absolute home path to "~/…" for display. */
export function shortPath(p: string): string {
  return p.replace(/^\/(home|Users)\/[^/]+/, '~');
}

/** Long ids (UUIDv7) shortened to their random tail, "…5cf37feb"; the full id goes in a title. */
export function shortId(id: string): string {
  return id.length > 12 ? `…${id.slice(-8)}` : id;
}
