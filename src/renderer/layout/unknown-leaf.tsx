import { useEffect, useState } from 'react';
import type { LeafRequest } from '../../shared/api';
import { useApi } from '../api/api-context';
import { errorParts } from '../api/api-methods';
import { useAppStore } from '../store/app-store';

/**
 * Whether the leaf a request names is not in its session (a link from another copy of the file,
 * or a mistyped id): asked of the backend, only once the leaf view failed.
 */
export function useUnknownLeaf(req: LeafRequest | null, failed: boolean): boolean {
  const api = useApi();
  const foldAudit = useAppStore((s) => s.foldAudit);
  const [unknown, setUnknown] = useState<string | null>(null);
  const key = req?.key ?? null;
  const leaf = req?.leaf ?? null;
  useEffect(() => {
    if (!failed || !key || leaf === null) return;
    let live = true;
    api.findRow({ key, id: leaf, foldAudit }).then(
      () => live && setUnknown(null),
      (e: unknown) => live && setUnknown(errorParts(e).code === 'not_found' ? `${key}\n${leaf}` : null),
    );
    return () => {
      live = false;
    };
  }, [api, failed, key, leaf, foldAudit]);
  return failed && leaf !== null && unknown === `${key}\n${leaf}`;
}

/** What the panes say for a link's leaf the session does not have, with the way back to its active leaf. */
export function UnknownLeaf({ leaf }: { leaf: string }) {
  const selectLeaf = useAppStore((s) => s.selectLeaf);
  return (
    <div className="unknown-leaf" role="alert">
      <p>
        The link names entry <code>{leaf}</code>, which this session does not have: the link may come from another copy
        of the file, or the id is mistyped. Nothing is selected.
      </p>
      <button type="button" onClick={() => selectLeaf(null, null)}>
        Show the active leaf
      </button>
    </div>
  );
}
