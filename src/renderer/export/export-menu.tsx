import { useApi } from '../api/api-context';
import { useAppStore } from '../store/app-store';
import { saveProjection, saveSessionHtml } from './exports';
import './export.css';

/** Export buttons for the leaf head: the session as HTML, the projected context as JSON or Markdown. */
export function ExportMenu() {
  const api = useApi();
  const notice = useAppStore((s) => s.exportNotice);
  const clear = useAppStore((s) => s.setExportNotice);
  const st = useAppStore.getState;
  return (
    <span className="export-menu" role="group" aria-label="Export">
      <span className="dim">export</span>
      <button
        type="button"
        onClick={() => void saveSessionHtml(api, st())}
        title="The session as one self-contained HTML file (opens offline, #leaf=<id> links)"
      >
        HTML
      </button>
      <button
        type="button"
        onClick={() => void saveProjection(api, st(), 'json')}
        title="The selected leaf's projected context as JSON (the project --json shape)"
      >
        JSON
      </button>
      <button
        type="button"
        onClick={() => void saveProjection(api, st(), 'markdown')}
        title="The selected leaf's projected context as Markdown"
      >
        Markdown
      </button>
      {notice && (
        <span className={notice.error ? 'error export-notice' : 'dim export-notice'} role="status">
          {notice.text}{' '}
          <button type="button" className="link-button" onClick={() => clear(null)} aria-label="Dismiss">
            ✕
          </button>
        </span>
      )}
    </span>
  );
}
