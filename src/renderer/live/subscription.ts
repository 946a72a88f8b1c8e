import type { Api, Subscription } from '../../shared/api';

/**
 * Subscribes to a topic and returns what ends it. The answer may come after the
 * caller already stopped (an effect cleaned up): that late subscription is dropped at once.
 */
export function subscribeUntilStopped(api: Api, topic: Subscription): () => void {
  let stopped = false;
  let sub: string | null = null;
  const drop = (id: string): void => void api.unsubscribe({ subscription: id }).catch(() => undefined);
  api.subscribe(topic).then(
    (r) => {
      if (stopped) drop(r.subscription);
      else sub = r.subscription;
    },
    () => undefined,
  );
  return () => {
    stopped = true;
    if (sub) drop(sub);
  };
}
