import { z } from 'zod';
import { listPageQueryShape } from './page-query.js';

/** A fixture API key as `GET /__sim/fixtures` lists it. */
export const fixtureApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** What a client developer tests with it. */
  purpose: z.string().nullable(),
  /** The secret to send, while it is still the key's secret (null after a rotation or for created keys). */
  secret: z.string().nullable(),
  /** The first characters of the secret, as key listings show it. */
  start: z.string(),
  organizationId: z.string(),
  scopes: z.array(z.string()).readonly(),
  /** null: every website of the organization. */
  websiteIds: z.array(z.string()).readonly().nullable(),
  enabled: z.boolean(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** Whether the rolling per-key quota applies. */
  rateLimitEnabled: z.boolean(),
  /** Its limit; null: the default of 300. */
  rateLimitMax: z.number().int().nullable(),
  /** Its window in seconds; null: the default of 60. */
  rateLimitTimeWindow: z.number().int().nullable(),
});

export type FixtureApiKey = z.infer<typeof fixtureApiKeySchema>;

/** A fixture user and the dashboard session token it is signed in with (null once signed out). */
export const fixtureUserSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  organizationIds: z.array(z.string()).readonly(),
  activeOrganizationId: z.string(),
  sessionToken: z.string().nullable(),
});

export type FixtureUser = z.infer<typeof fixtureUserSchema>;

/** A record of the world as it stands (an organization, website, link, …): its own fields, instants in ISO 8601. */
export const fixtureRecordSchema = z.looseObject({ id: z.string() });

/** An organization's payment webhooks as `GET /__sim/fixtures` lists them, secrets included. */
export const fixtureRevenueConfigSchema = z.object({
  organizationId: z.string(),
  /** Where revenue goes when a payment names no website of the organization (null: its first website). */
  websiteId: z.string().nullable(),
  /** The `:hash` segment of both webhook paths. */
  webhookHash: z.string(),
  /** Stripe's endpoint signing secret (`whsec_…`), null when Stripe is not configured (its webhook answers 404). */
  stripeWebhookSecret: z.string().nullable(),
  /** Paddle's notification secret key (`pdl_ntfset_…`), null when Paddle is not configured. */
  paddleWebhookSecret: z.string().nullable(),
  /** `/webhooks/stripe/<hash>`: where Stripe posts (signed with `stripe-signature`). */
  stripeWebhookPath: z.string(),
  /** `/webhooks/paddle/<hash>`: where Paddle posts (signed with `paddle-signature`). */
  paddleWebhookPath: z.string(),
});

export type FixtureRevenueConfig = z.infer<typeof fixtureRevenueConfigSchema>;

/**
 * Query string of `GET /__sim/fixtures`: one page of every list (`?page=` from 1, `?limit=`
 * items per list, at most 1,000, the default), so a large world (10,000 websites) is read in
 * pages; `totals` says how many each list holds.
 */
export const fixturesQuerySchema = z.object(listPageQueryShape);

const count = z.number().int().nonnegative();

/** How many items each list of the fixtures holds in all (the lists hold one page). */
export const fixturesTotalsSchema = z.object({
  organizations: count,
  websites: count,
  users: count,
  apiKeys: count,
  links: count,
  monitors: count,
  statusPages: count,
  flags: count,
  revenueConfigs: count,
});

/** `GET /__sim/fixtures`: the seeded world as it stands now, secrets and session tokens included. */
export const fixturesListingSchema = z.object({
  seed: z.string(),
  organizations: z.array(fixtureRecordSchema),
  websites: z.array(fixtureRecordSchema),
  users: z.array(fixtureUserSchema),
  apiKeys: z.array(fixtureApiKeySchema),
  links: z.array(fixtureRecordSchema),
  monitors: z.array(fixtureRecordSchema),
  statusPages: z.array(fixtureRecordSchema),
  flags: z.array(fixtureRecordSchema),
  revenueConfigs: z.array(fixtureRevenueConfigSchema),
  /** Every list's full length: more pages remain while page × limit < a total. */
  totals: fixturesTotalsSchema,
});

export type FixturesListing = z.infer<typeof fixturesListingSchema>;
