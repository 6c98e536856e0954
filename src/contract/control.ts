import { z } from 'zod';

/** An instant: epoch milliseconds, or an ISO 8601 string. */
export const instantSchema = z.union([z.number().int().nonnegative(), z.iso.datetime({ offset: true })]);

/**
 * `POST /__sim/clock`: switch mode, set, and/or advance, applied in that order. `now` and
 * `advanceMs` apply to the virtual clock.
 */
export const clockRequestSchema = z
  .object({
    mode: z.enum(['real', 'virtual']).optional(),
    now: instantSchema.optional(),
    advanceMs: z.number().int().nonnegative().optional(),
  })
  .strict();

export type ClockRequest = z.infer<typeof clockRequestSchema>;

/** `POST /__sim/reset`: back to the seeded state, optionally with another seed. */
export const resetRequestSchema = z
  .object({
    seed: z.union([z.string().min(1).max(128), z.number().int()]).optional(),
  })
  .strict();

export type ResetRequest = z.infer<typeof resetRequestSchema>;

/** What the control plane says about the clock. */
export const clockSnapshotSchema = z.object({
  mode: z.enum(['real', 'virtual']),
  now: z.number().int(),
  iso: z.string(),
});

/** `GET /__sim/health`. */
export const healthReportSchema = z.object({
  ok: z.literal(true),
  seed: z.string(),
  clock: clockSnapshotSchema,
  /** API key requests in flight. */
  inFlight: z.number().int(),
  /** What the query caches of this process hold: both are bounded. */
  caches: z.object({
    /** Computed query results: entries kept, lookups answered from one (hits) and computed (misses). */
    results: z.object({ entries: z.number().int(), hits: z.number().int(), misses: z.number().int() }),
    /** Generated traffic by entity and day: entries kept and their estimated bytes. */
    traffic: z.object({ entries: z.number().int(), bytes: z.number().int() }),
  }),
  /** With a shared store (`--store redis://…`): where it is, and whether it lost the data it held. */
  store: z
    .object({
      location: z.string(),
      prefix: z.string(),
      /** Null while the store holds everything written to it; set once this process found it emptied (a Redis restarted without persistence, or flushed). */
      dataLoss: z.object({ count: z.number().int(), at: z.number().int(), message: z.string() }).nullable(),
    })
    .optional(),
});

/** `POST /__sim/reset`. */
export const resetResponseSchema = z.object({ ok: z.literal(true), seed: z.string(), clock: clockSnapshotSchema });

/** One window check of a journal entry. */
export const windowCheckSchema = z.object({
  rule: z.string(),
  id: z.string(),
  limit: z.number().int(),
  windowMs: z.number().int(),
  allowed: z.boolean(),
  order: z.number().int(),
});

/** One admission decision, as `GET /__sim/journal` lists it. */
/** Why a request was refused: the error's code and message, the field at fault, the cause and the fix, as the answer said them. */
export const journalReasonSchema = z.object({
  code: z.string().describe('The error code of the answer (VALIDATION_ERROR, RATE_LIMITED, basket.INVALID_EVENT_SCHEMA …)'),
  message: z.string().describe('The error message of the answer'),
  field: z.string().nullable().describe('The first field at fault, when the answer names one'),
  cause: z.string().nullable().describe('What was wrong with it (the first detail), when the answer says'),
  fix: z.string().nullable().describe('What to change (the answer’s hint or fix)'),
});

export const journalEntrySchema = z.object({
  seq: z.number().int(),
  at: z.number().int(),
  requestId: z.string(),
  method: z.string(),
  path: z.string(),
  route: z.string().nullable(),
  identity: z.string(),
  keyId: z.string().nullable(),
  outcome: z.string(),
  status: z.number().int(),
  checks: z.array(windowCheckSchema),
  inFlight: z.number().int().nullable(),
  inFlightCap: z.number().int().nullable(),
  faults: z.array(z.object({ scenario: z.string(), step: z.number().int(), name: z.string().nullable(), effect: z.string() })),
  fingerprint: z.string(),
  retryAfter: z.number().nullable(),
  warnings: z.array(z.string()),
  reason: journalReasonSchema.nullable().describe('Why the request was refused (null when it was answered 2xx or 3xx)'),
});

/** What the journal knows about its own completeness. */
export const journalInfoSchema = z.object({
  complete: z.boolean(),
  since: z.number().int(),
  capacity: z.number().int(),
  size: z.number().int(),
  dropped: z.number().int(),
});

/** `GET /__sim/journal`. */
export const journalListingSchema = z.object({ info: journalInfoSchema, entries: z.array(journalEntrySchema) });

/** `DELETE /__sim/journal`. */
export const journalClearedSchema = z.object({ ok: z.literal(true), info: journalInfoSchema });

/** `GET /__sim/journal/oracle`: the replay's verdict. */
export const oracleReportSchema = z.object({
  checked: z.number().int(),
  skipped: z.number().int(),
  disagreements: z.array(
    z.object({
      seq: z.number().int(),
      requestId: z.string(),
      rule: z.string(),
      id: z.string(),
      recorded: z.enum(['allowed', 'refused']),
      expected: z.enum(['allowed', 'refused']),
      kind: z.enum(['over-admission', 'under-admission']),
    }),
  ),
  overAdmissions: z.number().int(),
  underAdmissions: z.number().int(),
  accuracy: z.number(),
});

/** The profiles a simulator can follow: `spec` (SPEC.md) and `live` (the live service). */
export const profileSchema = z.enum(['spec', 'live']);

/** `PUT /__sim/profile`: the profile to follow from now on. */
export const profileRequestSchema = z.object({ profile: profileSchema });

/** The longest ingestion delay the simulator takes: a day, ms. */
export const MAX_INGEST_DELAY_MS = 86_400_000;

/** An ingestion delay, whole milliseconds from 0 to {@link MAX_INGEST_DELAY_MS}. */
export const ingestDelayMsSchema = z
  .number({ error: 'ms must be a number of milliseconds' })
  .int('ms must be a whole number of milliseconds')
  .min(0, 'ms must be 0 (visible at once) or more')
  .max(MAX_INGEST_DELAY_MS, `ms must be at most ${MAX_INGEST_DELAY_MS} (a day)`);

/** `PUT /__sim/ingest-delay`: how long accepted records wait before queries see them. */
export const ingestDelayRequestSchema = z.object({ ms: ingestDelayMsSchema.describe('Milliseconds from acceptance to visibility; 0 shows records at once') });

/** `GET`/`PUT /__sim/ingest-delay`: the delay in force and the records it holds back now. */
export const ingestDelayReportSchema = z.object({
  ms: z.number().int().describe('Milliseconds from acceptance to visibility'),
  pending: z.number().int().describe('Accepted writes (batches, records, identifies) not yet visible'),
});

/** `GET`/`PUT /__sim/profile`: the profile in force and what each switch does under it. */
export const profileReportSchema = z.object({
  profile: profileSchema,
  profiles: z.array(profileSchema),
  switches: z.array(z.object({ name: z.string(), follows: profileSchema, spec: z.string(), live: z.string() })),
});
