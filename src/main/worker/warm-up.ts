/**
 * What the first calls of a fresh backend would otherwise pay for on their way to an answer (a
 * reopen's first rows): the secret scan threads, started and run once on a made-up batch, and
 * their pre-faulted batch buffers (an open makes its session's scanner); the hash the index
 * store names kept indexes by (its first use loads the digest); and each request schema's first
 * parse (the validator compiles its fast path then).
 * Run once the backend is ready, while no call waits.
 */
import { createHash } from 'node:crypto';
import { requestSchemas } from '../../shared/api-schemas';
import { sharedScanThread } from '../secrets/scan-thread';

export function warmUp(): void {
  sharedScanThread().prepare();
  createHash('sha256').update('').digest('hex');
  for (const schema of Object.values(requestSchemas)) schema.safeParse({});
}
