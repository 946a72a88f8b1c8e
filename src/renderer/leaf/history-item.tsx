import { memo, useState } from 'react';
import type { ChainItem, EntryDetail } from '../../shared/api';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';
import { EntryView } from '../entry-views/entry-view';
import { CopyButton } from '../export/copy-button';
import { rawLineOf } from '../export/exports';
import { redactedCopy } from '../export/use-secrets';
import { SecretMarks } from './secret-marks';
import { useEntrySecrets } from '../store/secrets-store';
import { kindIcon, kindLabel, roleLabel } from '../tree/kind-icons';
import { formatBytes, fullTime, shortId, timeOfDay } from '../util/format';
import { prettyJson } from '../util/heavy-work';

interface Props {
  sessionKey: string;
  item: ChainItem;
  linked: boolean;
  /** Which projected messages it went to, e.g. #3 full: each a link that scrolls the Projected pane to it. */
  projected: readonly { index: number; label: string }[];
  onOpenMessage: (item: ChainItem, index: number) => void;
  onHover: (item: ChainItem | null) => void;
  onPin: (item: ChainItem) => void;
  /** Time travel from the history: the entry becomes the selected leaf. */
  onSelectLeaf: (id: string) => void;
}

/** One entry of the chain, expandable to a readable view of its kind, its raw JSON line one click away. */
export const HistoryItem = memo(function HistoryItem({
  sessionKey,
  item,
  linked,
  projected,
  onOpenMessage,
  onHover,
  onPin,
  onSelectLeaf,
}: Props) {
  const api = useApi();
  const secrets = useEntrySecrets(item.id);
  const [open, setOpen] = useState(false);
  const [showRaw, setShowRaw] = useState(false);
  const [detail, setDetail] = useState<{ d: EntryDetail; pretty: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const toggle = () => {
    setOpen((o) => !o);
    if (detail || open) return;
    api
      .getEntry({ key: sessionKey, id: item.id })
      .then(async (d) => setDetail({ d, pretty: d.truncated ? d.raw : await prettyJson(d.raw) }))
      .catch((e: unknown) => setError(describeError(e)));
  };

  return (
    <div
      className={`history-item kind-${item.kind}${linked ? ' linked' : ''}${item.hidden ? ' not-visible' : ''}`}
      data-entry-id={item.id}
      onMouseEnter={() => onHover(item)}
      onMouseLeave={() => onHover(null)}
    >
      <div className="history-line" onDoubleClick={() => onSelectLeaf(item.id)} title="Double-click: select as leaf">
        <button type="button" className="expand" aria-expanded={open} onClick={toggle} title="Show the entry">
          {open ? '▾' : '▸'}
        </button>
        <span className="kind-icon">{kindIcon(item.kind)}</span>
        <button
          type="button"
          className="history-id"
          onClick={() => onPin(item)}
          title={`${item.id} · line ${item.line} — click to pin: light where it went`}
        >
          {shortId(item.id)}
        </button>
        <span className="row-role">{item.role ? roleLabel(item.role) : kindLabel(item.kind)}</span>
        {item.control && <span className="tag">control</span>}
        {secrets.length > 0 && <SecretMarks findings={secrets} />}
        <span className="row-text">{item.text}</span>
        {item.hidden ? (
          <span className="hidden-reason" title="not model-visible">
            {item.hidden}
          </span>
        ) : null}
        {projected.length > 0 && (
          <span className="projected-as">
            →{' '}
            {projected.map((m, k) => (
              <span key={m.index}>
                {k > 0 ? ', ' : ''}
                <button
                  type="button"
                  className="link-button"
                  onClick={() => onOpenMessage(item, m.index)}
                  title={`Show projected message #${m.index} in the Projected pane`}
                >
                  {m.label}
                </button>
              </span>
            ))}
          </span>
        )}
        <span className="row-time" title={fullTime(item.ts)}>
          {timeOfDay(item.ts)}
        </span>
      </div>
      {open && (
        <div className="raw-entry">
          {error && <p className="error">{error}</p>}
          {!detail && !error && <p className="dim">loading…</p>}
          {detail && (
            <>
              <div className="entry-view-bar">
                <span className="dim">
                  line {detail.d.line} · offset {detail.d.offset} · {formatBytes(detail.d.length)}
                  {detail.d.truncated ? ' · clipped' : ''}
                </span>
                <button
                  type="button"
                  className="raw-toggle"
                  aria-pressed={showRaw}
                  onClick={() => setShowRaw((r) => !r)}
                >
                  raw JSON
                </button>
                <CopyButton label="copy id" name={`copy entry id ${item.id}`} text={() => item.id} />
                <CopyButton
                  label="copy line"
                  name={`copy the raw line of ${item.id}`}
                  text={async () => redactedCopy(api, sessionKey, await rawLineOf(api, sessionKey, item.id))}
                />
              </div>
              {showRaw ? (
                <pre className="json">{detail.pretty}</pre>
              ) : (
                <EntryView detail={detail.d} item={item} raw={<pre className="json">{detail.pretty}</pre>} />
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
});
