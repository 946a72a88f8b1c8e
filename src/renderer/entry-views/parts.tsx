/**
 * Building blocks of the entry views. Every value comes from a ledger line, so it is
 * untrusted: drawn as text nodes only, long values clipped with "show all".
 */
import type { ReactNode } from 'react';
import { stringifyJson } from '../../shared/json-text';
import type { Json } from '../../shared/ledger-types';
import { currentChainSource } from '../data/session-sources';
import { CollapsibleText } from '../text/collapsible-text';
import { useAppStore } from '../store/app-store';
import { fmtInt, shortId } from '../util/format';

export type JsonObject = { [k: string]: Json };

/** The object at `key` of `o` (own keys only), or an empty object. */
export function objAt(o: Json | undefined, key: string): JsonObject {
  if (!isObj(o) || !Object.hasOwn(o, key)) return {};
  const v = o[key];
  return isObj(v) ? v : {};
}

export const isObj = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `o[key]` when `o` has it as an own key. */
export const own = (o: JsonObject, key: string): Json | undefined => (Object.hasOwn(o, key) ? o[key] : undefined);

/** A value as one readable string: strings as they are, anything else as JSON text. */
export const asText = (v: Json | undefined): string =>
  v === undefined ? '' : typeof v === 'string' ? v : stringifyJson(v);

/** A list of strings from a JSON array (other items as JSON text); [] for anything else. */
export const asList = (v: Json | undefined): string[] => (Array.isArray(v) ? v.map((x) => asText(x)) : []);

/** A label/value grid; rows whose value is absent are left out. */
export function Fields({ rows }: { rows: [string, ReactNode][] }) {
  const shown = rows.filter(([, v]) => v !== null && v !== undefined && v !== '');
  return (
    <dl className="ev-fields">
      {shown.map(([k, v]) => (
        <div key={k} className="ev-field">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Plain text, newlines kept, clipped with "show all" when long. */
export function Text({ value }: { value: Json | undefined }) {
  const t = asText(value);
  if (!t) return null;
  return <CollapsibleText text={t} render={(s) => <span className="ev-text">{s}</span>} />;
}

/** Any JSON value, pretty-printed, clipped with "show all" when long. */
export function JsonBlock({ value }: { value: Json | undefined }) {
  if (value === undefined) return null;
  return <CollapsibleText text={stringifyJson(value, 2)} render={(s) => <pre className="json">{s}</pre>} />;
}

/** A number with thousands separators, or the value as text when it is not a number. */
export const num = (v: Json | undefined): string =>
  typeof v === 'number' ? fmtInt(v) : v === undefined ? '' : asText(v);

/** Token usage `{input_tokens, output_tokens, cache_*}` on one line. */
export function usageLine(u: Json | undefined): string {
  if (!isObj(u)) return asText(u);
  const parts = [
    ['in', 'input_tokens'],
    ['out', 'output_tokens'],
    ['cache read', 'cache_read_tokens'],
    ['cache write', 'cache_write_tokens'],
  ]
    .filter(([, k]) => own(u, k) !== undefined)
    .map(([label, k]) => `${num(own(u, k))} ${label}`);
  return parts.join(' · ');
}

/**
 * Lights an entry of this session as a click on its id does (tree, History and projected
 * pane), and brings it into view in the History pane and the tree.
 */
export function lightEntries(ids: string[]): void {
  const s = useAppStore.getState();
  const src = currentChainSource();
  const messages = new Set<number>();
  for (const id of ids) for (const m of src?.find((c) => c.id === id)?.item.projectedAs ?? []) messages.add(m);
  s.setHover(null);
  s.pin({ entries: ids, messages: [...messages], fromMessage: true });
  // The History pane scrolls a pinned entry into view by its estimated row; once drawn, make sure
  // it is really on screen (rows above it may have grown, like the expanded view this link is in).
  // Two frames: after the pane's own scroll to the row's estimate has run.
  const reveal = () => {
    const row = [...document.querySelectorAll<HTMLElement>('.history-pane .history-item')].find(
      (el) => el.dataset.entryId === ids[0],
    );
    if (row && typeof row.scrollIntoView === 'function') row.scrollIntoView({ block: 'nearest' });
  };
  requestAnimationFrame(() => requestAnimationFrame(reveal));
}

/** A link to another entry of this session: a click lights it and scrolls to it. */
export function EntryLink({ id, children }: { id: string; children?: ReactNode }) {
  return (
    <button
      type="button"
      className="ev-link"
      title={`${id} — click to light it and scroll to it`}
      onClick={() => lightEntries([id])}
    >
      {children ?? shortId(id)}
    </button>
  );
}
