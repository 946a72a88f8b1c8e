import type { SessionInfo, SessionSummary } from '../../shared/api';
import { Icon } from '../icons/icon';
import { fmtInt, fullTime, timeOfDay } from '../util/format';

/** One badge: a short word on screen, the sentence that explains it in its tooltip and accessible name. */
export interface SessionBadge {
  code: 'warnings' | 'cwd' | 'reloaded' | 'tail' | 'unread';
  /** On screen, after the icon. */
  text: string;
  /** The accessible name: a short phrase. */
  label: string;
  /** The tooltip: what it means, in a sentence. */
  explain: string;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${fmtInt(n)} ${n === 1 ? one : many}`;

/**
 * Every warning the library row knows about a session (from its summary alone, before or
 * after it was opened), each with a sentence for its tooltip.
 */
export function summaryBadges(s: SessionSummary): SessionBadge[] {
  const out: SessionBadge[] = [];
  if (s.unreadable !== null)
    out.push({ code: 'unread', text: 'not read', label: `not read: ${s.unreadable}`, explain: s.unreadable });
  if (s.warnings)
    out.push({
      code: 'warnings',
      text: String(s.warnings),
      label: plural(s.warnings, 'warning'),
      explain: `${plural(s.warnings, 'reader warning')}: lines that are torn, invalid, out of the hash chain or otherwise damaged (§8). They are skipped or kept as the spec says; the Warnings panel lists each one.`,
    });
  else if (s.warnings === null && s.tailUnterminated && s.lock === 'free')
    // Before the session is opened only its last byte is known: no agent is writing, yet no final \n.
    out.push({
      code: 'tail',
      text: 'tail',
      label: 'torn tail: the last line has no newline; open the session for all warnings',
      explain:
        'Torn tail: the last line has no newline and no agent holds the file (a crash mid-write). Open the session for all warnings.',
    });
  if (s.cwdMismatch)
    out.push({
      code: 'cwd',
      text: 'cwd',
      label: 'cwd mismatch',
      explain: `The folder ${s.cwdHash} is not the FNV-1a hash of this session's cwd (${s.cwd ?? 'unknown'}): the file was moved or copied from elsewhere (§1). It is read all the same.`,
    });
  return out;
}

/** The summary's badges plus what only an open session knows: reloads after the file broke append-only. */
export function sessionBadges(info: SessionInfo): SessionBadge[] {
  const out = summaryBadges({ ...info.summary, warnings: info.warningCount });
  const breaks = info.appendOnlyBreaks;
  if (breaks.length > 0) {
    const last = breaks[breaks.length - 1];
    out.push({
      code: 'reloaded',
      text: breaks.length === 1 ? 'reloaded' : `reloaded ×${breaks.length}`,
      label: `reloaded: the file broke append-only ${plural(breaks.length, 'time')}`,
      explain: `The file stopped being append-only while open (${breaks
        .map((b) => `${b.reason === 'shrunk' ? 'it shrank' : 'earlier bytes were rewritten'} at ${timeOfDay(b.at)}`)
        .join('; ')}), so it was read again from the start; the last time was ${fullTime(last.at)}.`,
    });
  }
  return out;
}

/** A warning badge: the icon and a short word, the explanation on hover and for screen readers. */
export function WarnBadge({ b }: { b: SessionBadge }) {
  return (
    <span className={`warn-badge warn-${b.code}`} title={b.explain} aria-label={b.label}>
      <Icon name="warn" /> {b.text}
    </span>
  );
}
