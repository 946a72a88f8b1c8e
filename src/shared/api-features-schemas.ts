/**
 * Runtime schemas of the feature requests (`api-features.ts`), built from the
 * shared pieces of `api-schemas.ts` so a session key or a profile is checked one way only.
 */
import { z } from 'zod';
import type { FeatureApiMethods } from './api-features';
import type { TurnOverride } from './ledger-types';

type FeatureMethod = keyof FeatureApiMethods;
type FeatureRequest<M extends FeatureMethod> = Parameters<FeatureApiMethods[M]>[0];

/** The schema pieces api-schemas.ts defines once. */
export interface SchemaParts {
  sessionKey: z.ZodType<string>;
  entryId: z.ZodType<string>;
  profile: z.ZodType<{ window: number; reserve: number; bytes_per_token: number }>;
  /** turn id → forced fidelity, rebuilt without a prototype (a turn id may be `__proto__`). */
  overrides: z.ZodType<Record<string, TurnOverride>>;
}

const SEARCH_ID = z.string().min(1).max(128);
/** A cursor is opaque to the client; the backend parses it. */
const CURSOR = z.string().min(1).max(256);
const EXPORT_ID = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'an export id as beginExport gave it');
const RFC3339 = z.string().min(1).max(64);
/** A series' basis as the backend gave it (series-delta.ts). */
const BASIS = z.string().min(1).max(128);
/** More points than any chain has turn ends (one point per turn end). */
const MAX_POINTS = 100_000_000;
const NAMES = z.array(z.string().min(1).max(4096)).max(256);

/** Request schemas of every feature method, keyed like `requestSchemas`. */
export function featureRequestSchemas(p: SchemaParts) {
  const leaf = p.entryId.nullable();
  /** A leaf projected under a plan: the fields the series and the exports share. */
  const plannedLeaf = {
    key: p.sessionKey,
    leaf,
    plan: z.enum(['none', 'auto']),
    profile: p.profile,
    overrides: p.overrides.optional(),
  };
  return {
    getContextSeries: z
      .object({
        ...plannedLeaf,
        held: z
          .object({ basis: BASIS, leaf: p.entryId, points: z.number().int().min(0).max(MAX_POINTS) })
          .strict()
          .optional(),
      })
      .strict(),
    search: z
      .object({
        searchId: SEARCH_ID,
        query: z.string().min(1).max(1000),
        scope: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('home') }).strict(),
          z.object({ kind: z.literal('session'), key: p.sessionKey }).strict(),
        ]),
        filters: z
          .object({
            agents: NAMES.optional(),
            cwds: NAMES.optional(),
            kinds: z.array(z.string().min(1).max(128)).max(64).optional(),
            from: RFC3339.optional(),
            to: RFC3339.optional(),
          })
          .strict(),
        limit: z.number().int().min(1).max(500),
        cursor: CURSOR.optional(),
        match: z.enum(['text', 'id']).optional(),
      })
      .strict(),
    cancelSearch: z.object({ searchId: SEARCH_ID }).strict(),
    getCost: z.object({ key: p.sessionKey, leaf: leaf.optional() }).strict(),
    getPriceTable: z.object({}).strict(),
    getSecrets: z
      .object({
        key: p.sessionKey,
        entryIds: z.array(p.entryId).max(1000).optional(),
        limit: z.number().int().min(1).max(10000).optional(),
      })
      .strict(),
    getSecretCounts: z.object({}).strict(),
    getSecretSurvey: z.object({}).strict(),
    setSecretSurvey: z.object({ on: z.boolean() }).strict(),
    redactTexts: z.object({ key: p.sessionKey, texts: z.array(z.string().max(16 << 20)).max(1000) }).strict(),
    getEntryFate: z.object({ ...plannedLeaf, entry: p.entryId }).strict(),
    searchProjected: z
      .object({
        ...plannedLeaf,
        query: z.string().min(1).max(1000),
        across: z.enum(['leaf', 'turn-ends']),
        limit: z.number().int().min(1).max(500),
      })
      .strict(),
    beginExport: z
      .object({ ...plannedLeaf, format: z.enum(['html', 'json', 'markdown']), unredacted: z.boolean().optional() })
      .strict(),
    readExport: z.object({ exportId: EXPORT_ID }).strict(),
    endExport: z.object({ exportId: EXPORT_ID }).strict(),
  } satisfies { [M in FeatureMethod]: z.ZodType<FeatureRequest<M>> };
}
