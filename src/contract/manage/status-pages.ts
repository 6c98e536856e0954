import { z } from 'zod';
import { attachedItemSchema, idSchema, itemResponseSchema, nameSchema, NOT_EMPTY, notEmpty, ownedItemSchema, resourceSchemas, timestampSchema, updateSchemaOf, websiteRefSchema } from './common.js';

/** Most monitors one status page shows. */
export const MAX_PAGE_MONITORS = 50;

/** A status page's public address segment: lower-case letters, digits and inner `-`, unique across the service. */
export const statusPageSlugSchema = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, 'Must be 1 to 64 lower-case letters, digits or inner -');

const descriptionSchema = z.string().trim().max(1000, 'At most 1000 characters').nullable();

const monitorIdsSchema = z
  .array(idSchema)
  .max(MAX_PAGE_MONITORS, `At most ${MAX_PAGE_MONITORS} monitors`)
  .refine((ids) => new Set(ids).size === ids.length, 'Each monitor may appear once')
  .meta({ uniqueItems: true });

/** A status page as the management routes return it. `monitorIds` are the monitors it shows, in order. */
export const statusPageSchema = attachedItemSchema({
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  /** Only published pages answer the public read. */
  published: z.boolean(),
  monitorIds: z.array(z.string()),
});

export type StatusPageBody = z.infer<typeof statusPageSchema>;

/** `POST /v1/status-pages`. `published` defaults to true, `monitorIds` to none. */
export const createStatusPageSchema = z.strictObject({
  name: nameSchema(),
  slug: statusPageSlugSchema,
  description: descriptionSchema.optional(),
  published: z.boolean().optional(),
  websiteId: websiteRefSchema.optional(),
  monitorIds: monitorIdsSchema.optional(),
});

export type CreateStatusPage = z.infer<typeof createStatusPageSchema>;

/**
 * The schemas of the status page routes; `PATCH /v1/status-pages/:id` takes any of the fields
 * but `monitorIds` (set with `PUT /v1/status-pages/:id/monitors`), at least one.
 */
export const statusPageSchemas = resourceSchemas(statusPageSchema, createStatusPageSchema, updateSchemaOf(createStatusPageSchema.omit({ monitorIds: true })));

export type UpdateStatusPage = z.infer<typeof statusPageSchemas.update>;

/** `PUT /v1/status-pages/:id/monitors`: the monitors the page shows, in order (replaces the list). */
export const pageMonitorsBodySchema = z.strictObject({ monitorIds: monitorIdsSchema });

export type PageMonitorsBody = z.infer<typeof pageMonitorsBodySchema>;

/** A monitor a status page shows, as its management routes list it. */
export const pageMonitorSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  paused: z.boolean(),
});

/** `GET|PUT /v1/status-pages/:id/monitors`. */
export const pageMonitorsResponseSchema = itemResponseSchema(
  z.object({ statusPageId: z.string(), monitorIds: z.array(z.string()), monitors: z.array(pageMonitorSchema) }),
);

// Incidents

/** The states of an incident, in their usual order. */
export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export const incidentStatusSchema = z.enum(INCIDENT_STATUSES);
export type IncidentStatus = z.infer<typeof incidentStatusSchema>;

/** How badly an incident hurts. */
export const INCIDENT_IMPACTS = ['none', 'minor', 'major', 'critical'] as const;
export const incidentImpactSchema = z.enum(INCIDENT_IMPACTS);
export type IncidentImpact = z.infer<typeof incidentImpactSchema>;

const titleSchema = nameSchema(200);
const messageSchema = z.string().trim().min(1, 'Must not be empty').max(5000, 'At most 5000 characters');

/** One entry of an incident's timeline. */
export const incidentUpdateSchema = z.object({
  id: z.string(),
  status: incidentStatusSchema,
  message: z.string(),
  createdAt: timestampSchema,
});

/** An incident of a status page; `updates` is its timeline, oldest first. */
export const incidentSchema = ownedItemSchema({
  statusPageId: z.string(),
  title: z.string(),
  status: incidentStatusSchema,
  impact: incidentImpactSchema,
  updates: z.array(incidentUpdateSchema),
  /** When it was last resolved; null while open. */
  resolvedAt: timestampSchema.nullable(),
});

export type IncidentBody = z.infer<typeof incidentSchema>;

/** `POST /v1/status-pages/:id/incidents`: opens an incident with its first update. Defaults: investigating, minor. */
export const createIncidentSchema = z.strictObject({
  title: titleSchema,
  message: messageSchema,
  status: incidentStatusSchema.optional(),
  impact: incidentImpactSchema.optional(),
});

export type CreateIncident = z.infer<typeof createIncidentSchema>;

/**
 * `PATCH /v1/status-pages/:id/incidents/:incidentId`: title and impact are edited in place; a
 * new status or a message adds an update to the timeline.
 */
export const updateIncidentSchema = z
  .strictObject({
    title: titleSchema.optional(),
    impact: incidentImpactSchema.optional(),
    status: incidentStatusSchema.optional(),
    message: messageSchema.optional(),
  })
  .refine(notEmpty, NOT_EMPTY);

export type UpdateIncident = z.infer<typeof updateIncidentSchema>;

/** `POST /v1/status-pages/:id/incidents/:incidentId/updates`: a timeline entry; without `status` the status stays. */
export const incidentUpdateBodySchema = z.strictObject({
  message: messageSchema,
  status: incidentStatusSchema.optional(),
});

export type IncidentUpdateBody = z.infer<typeof incidentUpdateBodySchema>;

/** The schemas of the incident routes. */
export const incidentSchemas = resourceSchemas(incidentSchema, createIncidentSchema, updateIncidentSchema);

// The public read

/** What a visitor sees of a monitor: its latest check and its last 24 hours. */
export const MONITOR_STATES = ['up', 'down', 'pending', 'paused', 'unknown'] as const;

/** The overall state a public page shows. */
export const PAGE_STATES = ['operational', 'degraded', 'partial_outage', 'major_outage'] as const;

export const publicMonitorSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** `paused` for a paused monitor; `unknown` before its first check. */
  status: z.enum(MONITOR_STATES),
  lastCheckedAt: timestampSchema.nullable(),
  responseTimeMs: z.number().nullable(),
  /** Share of successful checks over the last 24 hours, in percent with two decimals; null without checks. */
  uptime24h: z.number().nullable(),
});

export const publicIncidentSchema = incidentSchema.omit({ organizationId: true, statusPageId: true });

/**
 * `GET /v1/public/status-pages/:slug`, no authentication: a published page with its monitors'
 * current state, its open incidents and those resolved in the last 14 days (newest first).
 */
export const publicStatusPageResponseSchema = z.object({
  success: z.literal(true),
  requestId: z.string(),
  data: z.object({
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    status: z.enum(PAGE_STATES),
    monitors: z.array(publicMonitorSchema),
    activeIncidents: z.array(publicIncidentSchema),
    recentIncidents: z.array(publicIncidentSchema),
    updatedAt: timestampSchema,
  }),
});

export type PublicStatusPage = z.infer<typeof publicStatusPageResponseSchema>['data'];
