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
