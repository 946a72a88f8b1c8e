/** The words of the chart: its tooltip, its accessible value, its fit line. */
import type { BytesPerTokenFit, ContextPoint, ContextSeries } from '../../shared/api-series';
import { fmtInt, shortId, timeOfDay } from '../util/format';
import { STACK } from './chart-model';
import { fitVerdict } from './fit-verdict';
import { PART_LABEL } from './chart-theme';

/**
 * The head's count: the turn ends drawn (`drawn`, null while there is no series), or what stands in
 * for them until there is one, with how far a series on its way has come (`progress`, 0–1) once the
 * backend says. A chain not drawn yet is not "0 turn ends".
 */
export function turnEndsWords(
  drawn: number | null,
  loading: boolean,
  deferred: boolean,
  progress: number | null = null,
): string {
  const part = loading && progress !== null ? ` ${Math.floor(progress * 100)}%` : '';
  if (drawn === null) return deferred ? 'not drawn yet' : loading ? `loading…${part}` : '';
  return `${fmtInt(drawn)} turn end${drawn === 1 ? '' : 's'}${loading ? ` · updating…${part}` : ''}`;
}

/** "turn 12 of 40" — the point's number along the chain (1-based). */
export const turnLabel = (i: number, n: number): string => `turn ${i + 1} of ${n}`;

/** The tooltip's lines for point `i` (and the run of points its column stands for). */
export function pointLines(series: ContextSeries, i: number, run: { first: number; last: number } | null): string[] {
  const p = series.points[i];
  const n = series.points.length;
  const lines: string[] = [];
  lines.push(
    `${turnLabel(i, n)} · ${shortId(p.leaf)} · ${timeOfDay(p.ts)}` +
      (run && run.last > run.first ? ` (tallest of turns ${run.first + 1}–${run.last + 1})` : ''),
  );
  lines.push(
    `${fmtInt(p.total)} tok of ${fmtInt(series.window - series.reserve)}` +
      (p.overBudget > 0 ? ` · over budget by ${fmtInt(p.overBudget)}` : ''),
  );
  lines.push(
    STACK.filter((k) => p.parts[k] > 0)
      .map((k) => `${PART_LABEL[k]} ${fmtInt(p.parts[k])}`)
      .join(' · '),
  );
  lines.push(`closed turns: ${p.turns.full} full · ${p.turns.card} card · ${p.turns.packet} packet`);
  const marks = markerWords(p);
  if (marks) lines.push(marks);
  if (p.measured) {
    const d = p.measured.tokens - p.measured.estimated;
    lines.push(
      `measured ${fmtInt(p.measured.tokens)} tok (estimate ${fmtInt(p.measured.estimated)}, ${d >= 0 ? '+' : ''}${fmtInt(d)})`,
    );
  }
  return lines;
}

/** What changed in the plan at this point, in words (empty when nothing did). */
export function markerWords(p: ContextPoint): string {
  const out: string[] = [];
  if (p.markers.reset) out.push(`reset ${shortId(p.markers.reset)} applies`);
  if (p.markers.packets.length) out.push(`packet ${p.markers.packets.map(shortId).join(', ')} applied`);
  if (p.markers.degraded.length) out.push(`${p.markers.degraded.length} turn(s) Full → Card`);
  if (p.markers.overBudget) out.push('over budget');
  return out.join(' · ');
}

/**
 * The fit of the bytes per token to the measured inputs, in one line: the fit and how good
 * it is, or why none fits (null when nothing was measured).
 */
export function fitLine(fit: BytesPerTokenFit, current: number): string | null {
  const verdict = fitVerdict(fit);
  if (verdict.kind === 'unmeasured') return null;
  if (verdict.kind === 'cannot') return verdict.why;
  if (fit.bytesPerToken === null || fit.suggested === null) return null;
  const err = (e: number | null) => (e === null ? '–' : `${Math.round(e * 100)}%`);
  return (
    `measured input fits ${fit.bytesPerToken.toFixed(2)} bytes/token (${fit.points} call${fit.points === 1 ? '' : 's'}` +
    (fit.r2 !== null ? `, r² ${fit.r2.toFixed(2)}` : '') +
    `; error ${err(fit.meanRelErrorCurrent)} at ${current}, ${err(fit.meanRelErrorSuggested)} at ${fit.suggested})` +
    (verdict.kind === 'poor' ? ` — ${verdict.why}` : '')
  );
}
