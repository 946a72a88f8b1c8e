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

/**
 * 41230 → "41,230": a number as `toLocaleString('en-US')` writes it, for every count drawn.
 * Whole numbers are grouped here, without Intl: a page's first Intl formatter loads ICU's number
 * data on the main thread (about 30 ms in Chromium, measured in docs/performance.md), and every
 * first screen draws a count. Any other number (a fraction, -0, past 2^53) takes Intl's
 * formatter, made at its first use.
 */
export function fmtInt(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return intlFormat().format(n);
  const digits = String(Math.abs(n)).replace(GROUPS, ',');
  return n < 0 ? `-${digits}` : digits;
}

/** Each place followed by a whole number of three-digit groups. */
const GROUPS = /\B(?=(?:\d{3})+$)/g;

let intl: Intl.NumberFormat | null = null;
// The renderer's one Intl formatter (eslint.config.js, FIRST_SCREEN_WITHOUT_ICU), made at the first number that needs it.
// eslint-disable-next-line no-restricted-syntax
const intlFormat = (): Intl.NumberFormat => (intl ??= new Intl.NumberFormat('en-US'));

const pad = (n: number): string => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * An RFC 3339 stamp as a list shows it, in local time: "09:41:07" today, "20 Nov 09:41" on
 * another day of this year, "2025-11-20 09:41" in another year (seconds only today, so a dated
 * stamp stays short in a narrow row; `fullTime` gives the rest on hover). A stamp that does not
 * parse is shown as written.
 */
export function timeOfDay(ts: string, now: number = Date.now()): string {
  const ms = Date.parse(ts);
  if (Number.isNaN(ms)) return ts;
  const d = new Date(ms);
  const today = new Date(now);
  const hms = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  if (d.getFullYear() !== today.getFullYear())
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (d.getMonth() !== today.getMonth() || d.getDate() !== today.getDate())
    return `${d.getDate()} ${MONTHS[d.getMonth()]} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return hms;
}

/** The full stamp for a hover title: the local date and time with milliseconds, and the recorded UTC text. */
export function fullTime(ts: string): string {
  const ms = Date.parse(ts);
  if (Number.isNaN(ms)) return ts;
  const d = new Date(ms);
  const local = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(
    d.getMinutes(),
  )}:${pad(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
  return `${local} local · ${ts} as recorded`;
}

/** Byte sizes read the same in the previews the core writes and in the renderer. */
export { formatBytes } from '../../shared/format-bytes';

/**
 * Shortens a path under the user's own home to "~/…" for display. Another user's home stays
 * whole (`/home/ana/proj` and `/home/bob/proj` are different folders); with no home known, nothing
 * is shortened.
 */
export function shortPath(p: string, userHome?: string | null): string {
  const home = userHome?.replace(/\/+$/, '');
  if (!home) return p;
  if (p === home) return '~';
  return p.startsWith(`${home}/`) ? `~${p.slice(home.length)}` : p;
}

/** Long ids (UUIDv7) shortened to their random tail, "…5cf37feb"; the full id goes in a title. */
export function shortId(id: string): string {
  return id.length > 12 ? `…${id.slice(-8)}` : id;
}
