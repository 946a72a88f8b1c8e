/** Actions of the secret scan: see what was found, and the exports that keep secrets (asked first). */
import { saveProjection, saveSessionHtml, hasSession } from '../export/exports';
import { secretSurveyState, setSecretSurvey } from '../store/secret-survey';
import type { Action } from './action';

/** `confirm`: the question asked before an unredacted export (exports.ts `confirmUnredacted`). */
export function secretsActions(confirm: () => boolean): Action[] {
  const unredacted = (title: string, run: Action['run']): Action => ({
    id: '',
    title: `${title}, unredacted (asks first)`,
    run: (ctx) => (confirm() ? run(ctx) : ctx.state.setExportNotice({ text: 'Not exported.', error: false })),
    enabled: hasSession,
  });
  return [
    {
      // The library's checkbox, from the keyboard: it turns the setting over.
      id: 'secrets.survey',
      title: 'Secrets: count in sessions never opened (on/off)',
      run: async ({ api }) => {
        const now = await secretSurveyState(api).catch(() => null);
        if (now) await setSecretSurvey(api, !now.on);
      },
    },
    {
      id: 'secrets.show',
      title: 'Show the secrets found in the session',
      keys: ['S'],
      enabled: hasSession,
      run: async ({ api, state }) => {
        const key = state.sessionKey;
        if (!key) return;
        try {
          const s = await api.getSecrets({ key, limit: 1 });
          const all = Object.entries(s.kinds).map(([k, n]) => `${k} ×${n}`);
          const kinds =
            all.length > 4 ? `${all.slice(0, 4).join(', ')} and ${all.length - 4} more kinds` : all.join(', ');
          const first = s.findings[0];
          state.setExportNotice({
            text:
              s.count === 0
                ? `No secrets found${s.scanning ? ' so far (still scanning)' : ''}.`
                : `${s.count} secret${s.count === 1 ? '' : 's'} found${s.scanning ? ' so far' : ''}: ${kinds}. ` +
                  'Exports and copies redact them. The first is selected.',
            error: false,
          });
          if (first) state.openSessionAt(key, first.entryId);
        } catch (e) {
          state.setExportNotice({ text: e instanceof Error ? e.message : String(e), error: true });
        }
      },
    },
    {
      ...unredacted('Export the session as HTML', ({ api, state }) => saveSessionHtml(api, state, true)),
      id: 'export.html.unredacted',
    },
    {
      ...unredacted('Export the projected context as JSON', ({ api, state }) =>
        saveProjection(api, state, 'json', true),
      ),
      id: 'export.json.unredacted',
    },
    {
      ...unredacted('Export the projected context as Markdown', ({ api, state }) =>
        saveProjection(api, state, 'markdown', true),
      ),
      id: 'export.markdown.unredacted',
    },
  ];
}
