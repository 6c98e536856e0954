import { z } from 'zod';
import { propertiesSchema } from './track.js';

/**
 * The wire shapes of the ingestion routes beside `/track` (the live `basket` service):
 * `/identify`, `/mcp`, `/ai-traffic` and its setup check, and the legacy `/events`. Limits are
 * the live schemas' (`packages/validation`, `apps/basket/src/routes/track.ts`); a field the
 * service cuts to a length instead of refusing is accepted at any length and cut by the route.
 */

/** Limits of `identifyPayloadSchema`. The live serialized-traits bound is unknown; the Node SDK documents 2 KB. */
export const IDENTIFY_LIMITS = {
  profileId: 128,
  anonymousId: 128,
  websiteId: 255,
  traitKeys: 50,
  traitKeyLength: 128,
  traitValueLength: 255,
  traitsJsonLength: 2048,
} as const;

/** One trait value: a string of at most 255 characters, a number, a boolean, or null (which deletes the trait). */
const traitValueSchema = z.union([
  z.string().max(IDENTIFY_LIMITS.traitValueLength, `A trait value is at most ${IDENTIFY_LIMITS.traitValueLength} characters`),
  z.number(),
  z.boolean(),
  z.null(),
]);

/** Profile traits: at most 50 scalar values by name; null deletes a trait. */
export const traitsSchema = z
  .record(
    z.string().min(1, 'A trait name is 1 to 128 characters').max(IDENTIFY_LIMITS.traitKeyLength, `A trait name is at most ${IDENTIFY_LIMITS.traitKeyLength} characters`),
    traitValueSchema,
  )
  .superRefine((value, ctx) => {
    if (Object.keys(value).length > IDENTIFY_LIMITS.traitKeys) {
      ctx.addIssue({ code: 'custom', message: `Too many traits (at most ${IDENTIFY_LIMITS.traitKeys})` });
    } else if (JSON.stringify(value).length > IDENTIFY_LIMITS.traitsJsonLength) {
      ctx.addIssue({ code: 'custom', message: `Traits too large (at most ${IDENTIFY_LIMITS.traitsJsonLength} characters of JSON)` });
    }
  })
  .describe('Scalar traits by name (at most 50); null deletes one. username or name becomes the display name, email is stored lower-cased');

export type ProfileTraits = z.infer<typeof traitsSchema>;

/** The body of `POST /identify`: link a profile id to a visitor and merge its traits. */
export const identifyBodySchema = z.object({
  profileId: z
    .string({ error: (issue) => (issue.input === undefined ? 'profileId is required' : 'profileId must be a string') })
    .min(1, 'profileId is required (1 to 128 characters)')
    .max(IDENTIFY_LIMITS.profileId, `profileId is at most ${IDENTIFY_LIMITS.profileId} characters`)
    .describe('Your user’s stable id; control characters are removed and the rest trimmed'),
  anonymousId: z
    .string()
    .max(IDENTIFY_LIMITS.anonymousId, `anonymousId is at most ${IDENTIFY_LIMITS.anonymousId} characters`)
    .nullable()
    .optional()
    .describe('The visitor’s raw anonymous id (anon_…): its activity is linked to the profile'),
  traits: traitsSchema.nullable().optional(),
  websiteId: z
    .string()
    .min(1, 'websiteId is 1 to 255 characters')
    .max(IDENTIFY_LIMITS.websiteId, `websiteId is at most ${IDENTIFY_LIMITS.websiteId} characters`)
    .optional()
    .describe('The website of the profile: required with an API key; without one the client id names it'),
});

export type IdentifyBody = z.infer<typeof identifyBodySchema>;

/** The answer of `POST /identify`. */
export const identifyResponseSchema = z.object({
  status: z.literal('success'),
  type: z.literal('identify'),
});

/** The query string of the routes a browser calls with its website's client id. */
export const clientIdQuerySchema = z.object({
  client_id: z.string().optional().describe('The website id (the tracker’s client id); the databuddy-client-id header may carry it instead'),
});

/** Most calls in one `POST /mcp` request, and the largest value of its uint32 fields. */
export const MCP_LIMITS = { calls: 100, uint32: 4_294_967_295 } as const;

/** Lengths `/mcp` cuts its text fields to (the service truncates instead of refusing). */
export const MCP_FIELD_LENGTHS = {
  tool: 256,
  error: 512,
  errorCode: 64,
  sessionId: 128,
  clientName: 128,
  clientVersion: 64,
  serverName: 128,
  serverVersion: 64,
  userAgent: 512,
  environment: 32,
} as const;

const cutTo = (length: number, what: string) => z.string().describe(`${what}; cut to ${length} characters`);
const uint32 = (what: string) =>
  z.number().int('Expected an integer').min(0, 'Expected a non-negative integer').max(MCP_LIMITS.uint32, `Expected at most ${MCP_LIMITS.uint32}`).describe(what);

/** One MCP tool call, as `@databuddy/sdk/mcp` reports it. */
export const mcpCallSchema = z.object({
  tool: cutTo(MCP_FIELD_LENGTHS.tool, 'The tool’s name'),
  durationMs: uint32('How long the call took, ms'),
  error: z
    .string()
    .optional()
    .describe('Set when the call failed: its message; `MCP error <code>: <message>` and JSON error bodies are read into a code and a message of at most 512 characters'),
  errorCode: cutTo(MCP_FIELD_LENGTHS.errorCode, 'A code of the failure').optional(),
  outputChars: uint32('Characters of the result (default 0)').optional(),
  sessionId: cutTo(MCP_FIELD_LENGTHS.sessionId, 'The MCP session').optional(),
  clientName: cutTo(MCP_FIELD_LENGTHS.clientName, 'The client’s name from the MCP handshake (claude-code, cursor-vscode …)').optional(),
  clientVersion: cutTo(MCP_FIELD_LENGTHS.clientVersion, 'The client’s version').optional(),
  serverName: cutTo(MCP_FIELD_LENGTHS.serverName, 'The MCP server’s name').optional(),
  serverVersion: cutTo(MCP_FIELD_LENGTHS.serverVersion, 'The MCP server’s version').optional(),
  userAgent: cutTo(MCP_FIELD_LENGTHS.userAgent, 'The client’s HTTP user agent').optional(),
  timestamp: z.number().int().optional().describe('When the call happened, epoch ms; kept only within [now − 6 h, now + 5 min], else the arrival instant'),
  websiteId: z.string().min(1).max(128).optional().describe('The website the MCP server belongs to; without it the call belongs to the key’s organization'),
  environment: cutTo(MCP_FIELD_LENGTHS.environment, 'production, staging …').optional(),
});

export type McpCallInput = z.infer<typeof mcpCallSchema>;

/** The body of `POST /mcp`: 1 to 100 calls. */
export const mcpBodySchema = z
  .array(mcpCallSchema)
  .min(1)
  .max(MCP_LIMITS.calls, `A batch holds at most ${MCP_LIMITS.calls} calls`);

/** The answer of `POST /mcp` (202). */
export const mcpResponseSchema = z.object({
  status: z.literal('success'),
  /** Calls accepted. */
  count: z.number().int(),
});

/** Lengths `/ai-traffic` cuts its text fields to. */
export const AGENT_HIT_LENGTHS = { path: 2048, userAgent: 512, accept: 512, signatureAgent: 512, referrer: 2048 } as const;

/** One request of an AI crawler or agent, reported by the website's middleware. */
export const agentHitSchema = z.object({
  websiteId: z.string().min(1).max(128).describe('The website that served the request'),
  host: z.string().min(1).max(253).describe('The Host it was served under: the website’s domain or a subdomain of it'),
  path: cutTo(AGENT_HIT_LENGTHS.path, 'The path requested'),
  format: z.string().optional().describe('html, markdown or llms; any other value counts as html'),
  userAgent: cutTo(AGENT_HIT_LENGTHS.userAgent, 'The requester’s user agent; DatabuddySetupCheck/<nonce> records a setup check instead'),
  accept: cutTo(AGENT_HIT_LENGTHS.accept, 'The Accept header').optional(),
  signatureAgent: cutTo(AGENT_HIT_LENGTHS.signatureAgent, 'The Signature-Agent header of a signed agent').optional(),
  referrer: cutTo(AGENT_HIT_LENGTHS.referrer, 'The Referer header').optional(),
});

export type AgentHit = z.infer<typeof agentHitSchema>;

/** The answer of `GET /ai-traffic/setup-check/:websiteId/:nonce`. */
export const setupCheckResponseSchema = z.object({
  /** Whether a hit with that nonce reached `/ai-traffic` in the last 120 s. */
  recorded: z.boolean(),
});

/** Most spans in one `POST /events` request. */
export const CUSTOM_EVENT_SPANS_MAX = 100;

/** One lean custom-event span of the older SDKs (`customEventSpanSchema`). */
export const customEventSpanSchema = z.object({
  timestamp: z.number().int('timestamp must be a whole number of epoch milliseconds').describe('Epoch ms, within [2000-01-01, now + 1 h]'),
  path: z.string().max(2048, 'path is at most 2048 characters'),
  eventName: z.string().min(1, 'eventName is 1 to 128 characters').max(128, 'eventName is at most 128 characters'),
  eventId: z.string().max(512, 'eventId is at most 512 characters').nullish(),
  anonymousId: z.string().max(128, 'anonymousId is at most 128 characters').nullish(),
  anonymizeVisitorIds: z.union([z.boolean(), z.literal('auto')]).nullish(),
  profileId: z.string().min(1).max(128, 'profileId is at most 128 characters').nullish(),
  sessionId: z.string().max(128, 'sessionId is at most 128 characters').nullish(),
  properties: propertiesSchema.nullish(),
});

export type CustomEventSpan = z.infer<typeof customEventSpanSchema>;

/** The body of `POST /events`: up to 100 spans. */
export const customEventSpansSchema = z
  .array(customEventSpanSchema)
  .max(CUSTOM_EVENT_SPANS_MAX, `A batch holds at most ${CUSTOM_EVENT_SPANS_MAX} events`);

/** One identified profile, as `GET /__sim/profiles` lists it. */
export const identifiedProfileSchema = z.object({
  websiteId: z.string(),
  profileId: z.string(),
  /** From the username trait, else name; null when neither was given. */
  displayName: z.string().nullable(),
  /** The email trait, lower-cased. */
  email: z.string().nullable(),
  /** Every other trait. */
  traits: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  /** The anonymous ids linked to the profile, first linked first. */
  anonymousIds: z.array(z.string()),
  /** ISO 8601 instants of the first and the latest identify. */
  firstIdentifiedAt: z.string(),
  lastIdentifiedAt: z.string(),
});

/** The answer of `GET /__sim/profiles`. */
export const identifiedProfilesListingSchema = z.object({
  /** The website_id asked for; null when the listing spans every website. */
  websiteId: z.string().nullable(),
  /** Profiles the filter selects (the website's, or every website's). */
  total: z.number().int(),
  /** At most `limit` of them, first identified first. */
  profiles: z.array(identifiedProfileSchema),
});

/** The query string of `GET /__sim/profiles`. */
export const identifiedProfilesQuerySchema = z.object({
  website_id: z.string().min(1, 'website_id must not be empty').optional().describe('Only this website’s profiles (default: every website’s)'),
  profile_id: z.string().optional().describe('Only this profile (of every website, without website_id)'),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'limit must be a whole number from 1 to 1000')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1000, 'limit must be a whole number from 1 to 1000')
    .optional()
    .describe('At most this many profiles (default 100, at most 1000)'),
});
