import { z } from 'zod';

/** One sliding window of a key at the current instant, read from the admission store. */
export const windowUsageSchema = z.object({
  /** The rule that would refuse a request once the window is full, as the journal names it. */
  rule: z.enum(['key_quota', 'endpoint_limit', 'ingest_limit']),
  /** `quota`, the per-endpoint limit (`query:execute`, `query:compile`) or `track`. */
  name: z.string(),
  /** The window's identity in the store, e.g. `api-key:key_acme_quota` (never a secret). */
  id: z.string(),
  limit: z.number().int(),
  windowMs: z.number().int(),
  /** Slots held at this instant; null when the store cannot be read. */
  used: z.number().int().nullable(),
  /** Requests that would be admitted now: max(0, limit − used); null when the store cannot be read. */
  remaining: z.number().int().nullable(),
  /** Epoch ms when the next slot frees; null when none is held or the store cannot be read. */
  reset: z.number().int().nullable(),
});

export type WindowUsageReport = z.infer<typeof windowUsageSchema>;

/** One API key's limits: its quota, its other windows and its requests in flight. */
export const keyLimitsSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Whether the key authenticates at this instant. */
  status: z.enum(['active', 'disabled', 'revoked', 'expired']),
  /** Requests of this key in flight (counted by the hash of its secret). */
  inFlight: z.number().int(),
  /** The rolling per-key quota (SPEC 8.2.1), or null when the key does not have it enabled. */
  quota: windowUsageSchema.nullable(),
  /** The per-endpoint limits (SPEC 8.1) and the ingestion limit (SPEC 8.3) of this key. */
  windows: z.array(windowUsageSchema),
});

export type KeyLimits = z.infer<typeof keyLimitsSchema>;

/** `GET /__sim/limits`: every API key's windows and in-flight count at the clock's instant. */
export const limitsReportSchema = z.object({
  /** The clock instant the windows were read at, epoch ms. */
  now: z.number().int(),
  /** Requests in flight, all API keys together, and the cap per key (SPEC 8.2.2). */
  inFlight: z.object({ total: z.number().int(), cap: z.number().int() }),
  /** False when the admission store has no read operation or failed to answer: window figures are null. */
  storeReadable: z.boolean(),
  /** The keys in creation order, at most 100. */
  keys: z.array(keyLimitsSchema),
  /** Keys left out beyond the first 100. */
  omittedKeys: z.number().int(),
});

export type LimitsReport = z.infer<typeof limitsReportSchema>;
