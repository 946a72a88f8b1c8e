import { memo } from 'react';
import type { ProjectedMessage } from '../../shared/ledger-types';
import { fmtInt, shortId } from '../util/format';
import { CopyButton } from '../export/copy-button';
import { FidelityBadge } from './fidelity-badge';
import { MessageBlocks } from '../text/message-blocks';
import { SecretMarks } from './secret-marks';
import { useSecretsStore } from '../store/secrets-store';
import type { SecretFinding } from '../../shared/api-secrets';

interface Props {
  index: number;
  msg: ProjectedMessage;
  clipped: boolean;
  linked: boolean;
  pinned: boolean;
  onHover: (i: number | null) => void;
  onPin: (i: number) => void;
  /** Scrolls the History to a source entry of message `i` (absent: its sources are text). */
  onOpenSource?: (i: number, entryId: string) => void;
  onShowAll: (i: number) => void;
  /** The message's whole text (fetched in full when clipped). */
  onCopyText: (i: number) => Promise<string>;
}

/** One message of the projected context: role, fidelity, turn, tokens, then its blocks. */
export const ProjectedMessageView = memo(function ProjectedMessageView(p: Props) {
  const { msg } = p;
  const secrets = useSecretsStore((s) => sourceSecrets(s.byEntry, msg.source_ids));
  return (
    <article
      className={`projected-msg role-${msg.role}${p.linked ? ' linked' : ''}${p.pinned ? ' pinned' : ''}`}
      data-message-index={p.index}
      onMouseEnter={() => p.onHover(p.index)}
      onMouseLeave={() => p.onHover(null)}
    >
      <header className="msg-head">
        <button
          type="button"
          className="msg-pin"
          aria-pressed={p.pinned}
          onClick={() => p.onPin(p.index)}
          title="Pin: light its source entries"
        >
          #{p.index}
        </button>
        <span className="msg-role">{msg.role}</span>
        <FidelityBadge fidelity={msg.fidelity} />
        {msg.turn_id && (
          <span className="msg-turn" title={msg.turn_id}>
            turn {shortId(msg.turn_id)}
          </span>
        )}
        <span className="msg-sources" title={`source entries: ${msg.source_ids.join(', ')}`}>
          ←{' '}
          {msg.source_ids.slice(0, 1).map((id) =>
            p.onOpenSource ? (
              <button
                key={id}
                type="button"
                className="link-button"
                onClick={() => p.onOpenSource?.(p.index, id)}
                title={`Show ${id} in the History`}
              >
                {shortId(id)}
              </button>
            ) : (
              <span key={id}>{shortId(id)}</span>
            ),
          )}
          {/* More sources (a tail, a merged card): the pin lights them all in the History and the tree. */}
          {msg.source_ids.length > 1 && (
            <button
              type="button"
              className="link-button"
              onClick={() => p.onPin(p.index)}
              title={`Light all ${msg.source_ids.length} source entries`}
            >
              {' '}
              +{msg.source_ids.length - 1}
            </button>
          )}
        </span>
        {secrets.length > 0 && <SecretMarks findings={secrets} />}
        <span className="msg-tokens">{fmtInt(msg.tokens)} tok</span>
        <CopyButton label="copy" name={`copy the text of message ${p.index}`} text={() => p.onCopyText(p.index)} />
      </header>
      <div className="msg-body">
        <MessageBlocks content={msg.content} fetchRest={p.clipped ? () => p.onShowAll(p.index) : undefined} />
      </div>
    </article>
  );
});

const NONE: SecretFinding[] = [];
/** Findings of a message's source entries: one list per (byEntry, sources), so the selector is stable. */
const memo2 = new WeakMap<object, Map<readonly string[], SecretFinding[]>>();
function sourceSecrets(byEntry: Record<string, SecretFinding[]>, ids: readonly string[]): SecretFinding[] {
  let m = memo2.get(byEntry);
  if (!m) memo2.set(byEntry, (m = new Map()));
  let r = m.get(ids);
  if (!r) {
    r = ids.flatMap((id) => byEntry[id] ?? NONE);
    if (r.length === 0) r = NONE;
    m.set(ids, r);
  }
  return r;
}
