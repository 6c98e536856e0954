import { z } from 'zod';
import { attachedItemSchema, httpUrlSchema, nameSchema, resourceSchemas, updateSchemaOf, websiteRefSchema } from './common.js';

/** Shortest and longest time between two checks, in seconds. */
export const MIN_INTERVAL_SECONDS = 30;
export const MAX_INTERVAL_SECONDS = 86_400;

const intervalSchema = z
  .number()
  .int('Must be a whole number of seconds')
  .min(MIN_INTERVAL_SECONDS, `At least ${MIN_INTERVAL_SECONDS} seconds`)
  .max(MAX_INTERVAL_SECONDS, `At most ${MAX_INTERVAL_SECONDS} seconds`);

/** An uptime monitor as the management routes return it. Its checks are queried with `schedule_id`. */
export const managedMonitorSchema = attachedItemSchema({
  name: z.string(),
  url: z.string(),
  intervalSeconds: z.number().int(),
  /** A paused monitor shows as `paused` on status pages. */
  paused: z.boolean(),
});

export type ManagedMonitor = z.infer<typeof managedMonitorSchema>;

/** `POST /v1/monitors`. `intervalSeconds` defaults to 60. */
export const createMonitorSchema = z.strictObject({
  name: nameSchema(),
  url: httpUrlSchema,
  intervalSeconds: intervalSchema.optional(),
  websiteId: websiteRefSchema.optional(),
});

export type CreateMonitor = z.infer<typeof createMonitorSchema>;

/**
 * The schemas of the monitor routes; `PATCH /v1/monitors/:id` takes any of the fields, at least
 * one (pause and resume have their own routes).
 */
export const monitorSchemas = resourceSchemas(managedMonitorSchema, createMonitorSchema, updateSchemaOf(createMonitorSchema));

export type UpdateMonitor = z.infer<typeof monitorSchemas.update>;
