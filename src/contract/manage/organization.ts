import { z } from 'zod';
import { idSchema, itemResponseSchema, nameSchema, NOT_EMPTY, notEmpty, timestampSchema } from './common.js';

/** Shortest and longest data retention, in days. */
export const MIN_RETENTION_DAYS = 30;
export const MAX_RETENTION_DAYS = 3650;

/** Most allowed origins an organization lists. */
export const MAX_ALLOWED_ORIGINS = 50;

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const timezoneSchema = z.string().min(1).max(64).refine(isTimeZone, 'Must be an IANA time zone such as Europe/Berlin or UTC');

const originSchema = z
  .string()
  .regex(/^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$/, 'Must be an origin such as https://shop.example.com (scheme, host, optional port; no path)');

/** The settings of an organization: its name, reporting time zone, default website, retention and allowed origins. */
export const organizationSettingsSchema = z.object({
  organizationId: z.string(),
  name: z.string(),
  slug: z.string(),
  /** IANA time zone reports default to. */
  timezone: z.string(),
  /** The website dashboards open on; null for none. */
  defaultWebsiteId: z.string().nullable(),
  /** Days analytics data is kept. */
  dataRetentionDays: z.number().int(),
  /** Origins allowed to send browser requests for this organization. */
  allowedOrigins: z.array(z.string()),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});

export type OrganizationSettingsBody = z.infer<typeof organizationSettingsSchema>;

/** `PATCH /v1/organization/settings`: any of the fields, at least one. */
export const updateOrganizationSettingsSchema = z
  .strictObject({
    name: nameSchema().optional(),
    timezone: timezoneSchema.optional(),
    defaultWebsiteId: idSchema.nullable().optional(),
    dataRetentionDays: z
      .number()
      .int('Must be a whole number of days')
      .min(MIN_RETENTION_DAYS, `At least ${MIN_RETENTION_DAYS} days`)
      .max(MAX_RETENTION_DAYS, `At most ${MAX_RETENTION_DAYS} days`)
      .optional(),
    allowedOrigins: z
      .array(originSchema)
      .max(MAX_ALLOWED_ORIGINS, `At most ${MAX_ALLOWED_ORIGINS} origins`)
      .refine((list) => new Set(list.map((o) => o.toLowerCase())).size === list.length, 'Each origin may appear once')
      .optional(),
  })
  .refine(notEmpty, NOT_EMPTY);

export type UpdateOrganizationSettings = z.infer<typeof updateOrganizationSettingsSchema>;

export const organizationSettingsResponseSchema = itemResponseSchema(organizationSettingsSchema);
