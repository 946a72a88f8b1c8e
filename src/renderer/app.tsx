import { ApiProvider } from './api/api-context';
import type { Api } from '../shared/api';
import { useSecretsSync } from './export/use-secrets';
import { ContextChart } from './context-chart/context-chart';
import { FateStrip } from './fate/fate-host';
import { KeysOverlay } from './keyboard/keys-overlay';
import { SkipLink } from './keyboard/skip-link';
import { ReaderNotice } from './layout/reader-notice';
import { useKeyboard } from './keyboard/use-keyboard';
import { LeafPanes } from './leaf-panes';
import { useLeafViewLoader } from './leaf/use-leaf-view';
import { useLibrary } from './live/use-library';
import { useFollow, useSession } from './live/use-session';
import { PaletteHost } from './palette/palette-host';
import { PanelDrawer } from './panels/panel-drawer';
import { PlanBar } from './plan/plan-bar';
import { LibraryOrSearch } from './library-or-search';
import { useOpenedFiles } from './library/use-opened-files';
import { useUrlSync } from './store/use-url-sync';
import { useLayoutVars } from './layout/use-layout-vars';
import { SessionTree } from './tree/session-tree';

const noop = () => undefined;

function Shell({ api, ready }: { api: Api; ready: () => void }) {
  useUrlSync();
  useLibrary(api, ready);
  useSession(api);
  useFollow(api);
  useLeafViewLoader();
  useLayoutVars();
  useKeyboard(api);
  useSecretsSync(api);
  useOpenedFiles(api);
  return (
    <div className="app">
      <SkipLink />
      <ReaderNotice />
      <div className="main-row">
        <LibraryOrSearch />
        <div className="work-column">
          <ContextChart />
          <FateStrip />
          <div className="work-row">
            <SessionTree />
            <LeafPanes />
          </div>
        </div>
      </div>
      <PanelDrawer />
      <PlanBar />
      <KeysOverlay />
      <PaletteHost />
    </div>
  );
}

/** The whole explorer over one Api. */
export function App({ api, ready = noop }: { api: Api; ready?: () => void }) {
  return (
    <ApiProvider api={api}>
      <Shell api={api} ready={ready} />
    </ApiProvider>
  );
}
