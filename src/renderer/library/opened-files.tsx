import { useState } from 'react';
import type { SessionSummary } from '../../shared/api';
import { useApi } from '../api/api-context';
import { useAppStore } from '../store/app-store';
import { openRecent } from '../store/files-slice';
import { shortPath } from '../util/format';
import { SessionItem } from './session-item';

/**
 * "Opened files": sessions opened by path (File → Open…, a drop, `vak-explorer FILE`,
 * `serve --file`), each with its path; then the Recent list of files opened before.
 */
export function OpenedFiles({ sessions }: { sessions: SessionSummary[] }) {
  const api = useApi();
  const userHome = useAppStore((s) => s.home?.userHome);
  const selected = useAppStore((s) => s.sessionKey);
  const selectSession = useAppStore((s) => s.selectSession);
  const recent = useAppStore((s) => s.recentFiles);
  const openByPath = useAppStore((s) => s.openByPath);
  const [open, setOpen] = useState(true);
  const [recentOpen, setRecentOpen] = useState(false);
  const shown = new Set(sessions.map((s) => s.openedPath));
  const others = recent.filter((f) => !shown.has(f.path));
  if (sessions.length === 0 && (others.length === 0 || !openByPath)) return null;
  return (
    <li className="opened-files">
      {sessions.length > 0 && (
        <>
          <button type="button" className="group agent" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? '▾' : '▸'} Opened files
          </button>
          {open && (
            <ul aria-label="Opened files">
              {sessions.map((s) => (
                <li key={s.key} className="opened-file">
                  <span className="opened-path" title={s.openedPath}>
                    {/* (Isolated: the path reads left to right while a long one is cut at its start.) */}
                    <bdi>{shortPath(s.openedPath ?? '', userHome)}</bdi>
                  </span>
                  <ul>
                    <SessionItem s={s} selected={s.key === selected} onOpen={selectSession} />
                  </ul>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {openByPath && others.length > 0 && (
        <>
          <button
            type="button"
            className="group cwd"
            aria-expanded={recentOpen}
            onClick={() => setRecentOpen(!recentOpen)}
          >
            {recentOpen ? '▾' : '▸'} Recent files
          </button>
          {recentOpen && (
            <ul aria-label="Recent files">
              {others.map((f) => (
                <li key={f.path}>
                  <button
                    type="button"
                    className={`recent-file${f.missing ? ' missing' : ''}`}
                    title={f.missing ?? f.path}
                    aria-disabled={f.missing ? true : undefined}
                    onClick={() => void openRecent(api, useAppStore.getState(), f)}
                  >
                    {shortPath(f.path, userHome)}
                    {f.missing && <span className="dim"> (missing)</span>}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </li>
  );
}

/** What opening a file said, until dismissed. */
export function FileNotice() {
  const notice = useAppStore((s) => s.fileNotice);
  const show = useAppStore((s) => s.showFileNotice);
  if (!notice) return null;
  return (
    <div className="file-notice" role="alert">
      <p>{notice}</p>
      <button type="button" onClick={() => show(null)}>
        dismiss
      </button>
    </div>
  );
}
