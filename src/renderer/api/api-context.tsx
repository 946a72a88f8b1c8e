import { createContext, useContext, type ReactNode } from 'react';
import type { Api } from '../../shared/api';

const ApiContext = createContext<Api | null>(null);

/** Makes one Api available to every component below it. */
export function ApiProvider({ api, children }: { api: Api; children: ReactNode }) {
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

/** The Api of the nearest provider. */
export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside ApiProvider');
  return api;
}
