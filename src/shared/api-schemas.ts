/**
 * Runtime schemas for every request of `ApiMethods`: whatever crosses a process
 * boundary (IPC, WebSocket) is parsed here before a handler sees it.
 */
import { z } from 'zod';
import { featureRequestSchemas } from './api-features-schemas';
import {
  MAX_CHAIN_ITEMS,
  MAX_PLAN_TURNS,
  MAX_PROJECTED_PAGE,
  MAX_SLICE_BYTES,
  type ApiMethod,
  type ApiReply,
  type ApiRequest,
} from './api';
import { ownTable } from './own-key';
import { isSessionKey, OPENED_KEY_PATTERN, parseSessionKey, SESSION_KEY_PATTERN } from './session-key';

const sessionKey = z
  .string()
  .max(1024)
  .refine(
    (k) => SESSION_KEY_PATTERN.test(k) || OPENED_KEY_PATTERN.test(k),
    'not a session key (agents/<agent>/sessions/<cwd-hash>/<id>.jsonl, or opened/<n>.jsonl)',
  )
  .refine((k) => !SESSION_KEY_PATTERN.test(k) || parseSessionKey(k) !== null, 'a session key has no . or .. parts')
  .refine(isSessionKey, 'not a session key');

const entryId = z.string().min(1).max(512);
const count = z.number().int().min(0);

const profile = z.object({
  window: z.number().int().min(0).max(100_000_000),
  reserve: z.number().int().min(0).max(100_000_000),
  bytes_per_token: z.number().int().min(1).max(1000),
});

const override = z.discriminatedUnion('fidelity', [
  z.object({ fidelity: z.literal('full') }),
  z.object({ fidelity: z.literal('card') }),
  z.object({ fidelity: z.literal('packet'), packet_id: entryId }),
]);

/**
 * turn id → forced fidelity. Turn ids are ledger data: `z.record` would drop a key named
 * `__proto__`, so the pairs are checked as a list and rebuilt without a prototype.
 */
const overridesByTurn = z
  .preprocess(
    // Only an object is a table of overrides; anything else fails as null.
    (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.entries(v) : null),
    z.array(z.tuple([z.string(), override])).max(100_000),
  )
  .transform((pairs) => {
    const out = Object.create(null) as Record<string, z.infer<typeof override>>;
    for (const [turn, o] of pairs) out[turn] = o;
    return out;
  });

const leafRequest = z.object({
  key: sessionKey,
  leaf: entryId.nullable(),
  plan: z.enum(['none', 'auto']),
  profile,
  overrides: overridesByTurn,
});

const empty = z.object({}).strict();

/** A page of a big line: larger requests are refused (ask slice by slice) rather than held in memory. */
const sliceBytes = z
  .number()
  .int()
  .min(1)
  .max(MAX_SLICE_BYTES, `at most ${MAX_SLICE_BYTES} bytes per request: read a longer line in slices`);

// Without a prototype: a method named by a client is looked up among these keys only.
export const requestSchemas = ownTable({
  getHome: empty,
  listSessions: empty,
  openSession: z.object({ key: sessionKey }).strict(),
  getTreeRows: z
    .object({
      key: sessionKey,
      start: count,
      count: z.number().int().min(0).max(5000),
      foldAudit: z.boolean(),
      holding: z.literal('activeLeaf').optional(),
    })
    .strict()
    .refine((r) => r.holding === undefined || r.start === 0, 'with holding, start is 0: the answer says which page'),
  findRow: z.object({ key: sessionKey, id: entryId, foldAudit: z.boolean() }).strict(),
  getEntry: z
    .object({
      key: sessionKey,
      id: entryId,
      maxBytes: sliceBytes.optional(),
      sliceStart: count.optional(),
    })
    .strict(),
  getLeafView: leafRequest
    .extend({
      pagedMessages: z.boolean().optional(),
      screen: z
        .object({
          chainRows: z.number().int().min(1).max(MAX_CHAIN_ITEMS),
          messages: z.number().int().min(1).max(MAX_PROJECTED_PAGE),
        })
        .strict()
        .optional(),
    })
    .strict(),
  getChainItems: leafRequest
    .extend({
      start: count,
      count: z.number().int().min(0).max(MAX_CHAIN_ITEMS),
      kinds: z.array(z.string().min(1).max(128)).max(64).optional(),
    })
    .strict(),
  getProjectedMessage: leafRequest.extend({ message: count }).strict(),
  getProjectedMessages: leafRequest
    .extend({ start: count, count: z.number().int().min(0).max(MAX_PROJECTED_PAGE) })
    .strict(),
  getPlanTurns: z.union([
    leafRequest.extend({ start: count, count: z.number().int().min(0).max(MAX_PLAN_TURNS) }).strict(),
    leafRequest.extend({ ids: z.array(entryId).max(MAX_PLAN_TURNS) }).strict(),
  ]),
  getWarnings: z.object({ key: sessionKey }).strict(),
  getWork: z.object({ key: sessionKey }).strict(),
  getLine: z
    .object({
      key: sessionKey,
      offset: count,
      maxBytes: sliceBytes.optional(),
    })
    .strict(),
  branch: z
    .object({
      key: sessionKey,
      parentId: entryId,
      text: z.string().max(1_000_000),
      // Compared as sent (case included): see BranchRequest.idempotencyKey.
      idempotencyKey: z.uuid('idempotencyKey must be a UUID the client chose for this submission (compared as sent)'),
    })
    .strict(),
  subscribe: z.discriminatedUnion('topic', [
    z.object({ topic: z.literal('library') }).strict(),
    z
      .object({
        topic: z.literal('session'),
        key: sessionKey,
        since: z
          .object({ generation: z.number().int().min(0), entryCount: z.number().int().min(0), reading: z.boolean() })
          .strict()
          .optional(),
      })
      .strict(),
  ]),
  unsubscribe: z.object({ subscription: z.string().min(1).max(128) }).strict(),
  listRecentFiles: z.object({}).strict(),
  openRecentFile: z.object({ path: z.string().min(1).max(4096) }).strict(),
  ...featureRequestSchemas({ sessionKey, entryId, profile, overrides: overridesByTurn }),
} satisfies { [M in ApiMethod]: z.ZodType<ApiRequest<M>> });

export const API_METHODS = Object.keys(requestSchemas) as ApiMethod[];

export function isApiMethod(m: unknown): m is ApiMethod {
  return typeof m === 'string' && Object.prototype.hasOwnProperty.call(requestSchemas, m);
}

/** Parses a request or throws an Error whose message says what is wrong. */
export function parseRequest<M extends ApiMethod>(method: M, req: unknown): ApiRequest<M> {
  const r = requestSchemas[method].safeParse(req);
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join('.') || '(request)'}: ${i.message}`).join('; ');
    throw new Error(`bad ${method} request: ${issues}`);
  }
  return r.data as ApiRequest<M>;
}

/** WebSocket frames (serve mode). IPC uses one channel per method instead. */
export const wsClientFrame = z.object({
  id: z.number().int().min(0),
  method: z.string().max(64),
  req: z.unknown(),
});
/** Client → server: abort request `cancel` (its id); it is answered with code `cancelled` if still running. */
export const wsCancelFrame = z.object({ cancel: z.number().int().min(0) }).strict();
export type WsServerFrame = (ApiReply & { id: number }) | { event: unknown };

export { ipcChannel, IPC_CANCEL_CHANNEL, IPC_EVENT_CHANNEL, IPC_READY_CHANNEL } from './api-methods';
