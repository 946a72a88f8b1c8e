import type { Api, ApiMethod, ApiRequest, ApiResponse, BridgeApi, CallOptions } from '../../shared/api';
import { API_METHOD_NAMES, ApiError } from './api-methods';

/** The rejection of a call its caller aborted (the same code the backend answers with). */
export function cancelledCall(method: string): ApiError {
  return new ApiError('cancelled', `cancelled: ${method} was superseded`);
}

/**
 * The Electron transport as the one `Api`: the preload bridge takes a numeric call id instead
 * of an AbortSignal (a signal cannot cross the context bridge); aborting the signal rejects the
 * call at once with `cancelled` and tells main to abort the backend's work by that id.
 */
export function bridgeApi(bridge: BridgeApi): Api {
  let nextCallId = 1;
  const call = <M extends ApiMethod>(method: M, req: ApiRequest<M>, opts?: CallOptions): Promise<ApiResponse<M>> => {
    const invoke = bridge[method] as (r: ApiRequest<M>, callId?: number) => Promise<ApiResponse<M>>;
    const signal = opts?.signal;
    if (!signal) return invoke(req);
    if (signal.aborted) return Promise.reject(cancelledCall(method));
    const callId = nextCallId++;
    return new Promise<ApiResponse<M>>((resolve, reject) => {
      const onAbort = (): void => {
        reject(cancelledCall(method));
        bridge.cancel(callId);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      invoke(req, callId).then(
        (res) => {
          signal.removeEventListener('abort', onAbort);
          resolve(res);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  };
  const api: Record<string, unknown> = Object.fromEntries(
    API_METHOD_NAMES.map((m) => [m, (req: never, opts?: CallOptions) => call(m, req, opts)]),
  );
  api.onEvent = bridge.onEvent.bind(bridge);
  return api as unknown as Api;
}
