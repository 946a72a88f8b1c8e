import { useEffect, useState } from 'react';
import type { ApiEvent } from '../../shared/api';
import { useApi } from '../api/api-context';

type ReaderEvent = Extract<ApiEvent, { type: 'reader' }>;

/**
 * Says when the ledger core's worker stopped (out of memory on a hostile file, or a crash): what
 * was running then failed, and the user should know why rather than see requests vanish. Kept on
 * screen until dismissed; a later stop replaces it.
 */
export function ReaderNotice() {
  const api = useApi();
  const [event, setEvent] = useState<ReaderEvent | null>(null);
  useEffect(() => api.onEvent((e) => e.type === 'reader' && setEvent(e)), [api]);
  if (!event) return null;
  return (
    <div className="reader-notice" role="alert">
      <p>
        {event.change === 'restarted'
          ? 'The ledger reader stopped and was restarted: what it was doing failed, and is asked again as you go. '
          : 'The ledger reader stopped and was not restarted (it stopped too often): restart the app. '}
        Why: {event.reason}
      </p>
      <button type="button" onClick={() => setEvent(null)}>
        dismiss
      </button>
    </div>
  );
}
