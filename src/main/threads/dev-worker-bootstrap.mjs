// The backend worker from the TypeScript sources (tsx, vitest, the bench): a worker thread
// does not inherit the main thread's tsx loader, so register it here, then load the entry.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
