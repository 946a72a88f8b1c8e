import type { Api, ApiMethod, ApiRequest, ApiResponse } from '../../shared/api';

/** What a faulty method does instead: reject, delay, or call the real one (`real`) when it wants. */
export type Fault<M extends ApiMethod> = (
  req: ApiRequest<M>,
  real: (req: ApiRequest<M>) => Promise<ApiResponse<M>>,
) => Promise<ApiResponse<M>>;

/**
 * Error injection over a real Api: replaces one method (typed from the contract) and keeps
 * the real one at hand. The only "fake" the renderer's tests use: everything else is the backend.
 */
export function injectFault<M extends ApiMethod>(api: Api, method: M, fault: Fault<M>): void {
  const target = api as unknown as Record<M, (req: ApiRequest<M>) => Promise<ApiResponse<M>>>;
  const real = target[method].bind(api);
  target[method] = (req) => fault(req, real);
}
