import { clientIdQuerySchema, IDENTIFY_LIMITS, identifyBodySchema, identifyResponseSchema, type IdentifyBody } from '../../contract/ingest.js';
import { identifyRule } from '../admission/rules.js';
import { basketError, eventStorageFull, invalidEventSchema, type SimError } from '../errors.js';
import type { ApiKeyRecord, Website } from '../model/entities.js';
import { NO_CONTENT, ok, type RouteContext } from '../routing/route.js';
import { defineIngestRoute } from './ingest-route.js';
import { truncate } from '../text.js';
import { basketRefusal, createBasketEnvelope, INGEST_PIPELINE_KEYS } from './basket-envelope.js';
import { classifyUserAgent, missingUserAgent, warnMissingUserAgent, type MissingUserAgent } from './bots.js';
import { authenticateClientId, BASKET_TOO_LARGE, sanitizeText, type ClientIdQuery } from './client-id-auth.js';

/** Who identifies: an API key for a website of its organization, or a website's client id. */
type IdentifyAccess =
  | { readonly kind: 'key'; readonly key: ApiKeyRecord; readonly website: Website }
  | { readonly kind: 'client'; readonly website: Website; readonly ip: string; readonly bot: boolean; readonly missingUserAgent: MissingUserAgent };

/**
 * Every refusal of `/identify` in the ingestion envelope: the pipeline's missing scope is the
 * catalogue's TRACK_MISSING_SCOPE, its rate limit IDENTIFY_RATE_LIMITED.
 */
const asIdentifyEnvelope = createBasketEnvelope({
  ...INGEST_PIPELINE_KEYS,
  FORBIDDEN: 'TRACK_MISSING_SCOPE',
  RATE_LIMITED: 'IDENTIFY_RATE_LIMITED',
});

/**
 * An API key's website, in the service's order (`denyApiKeyIdentify`): `websiteId` is required
 * (400), the key must reach it with track:events (403 TRACK_MISSING_SCOPE: the pipeline has
 * checked the scope, a website-restricted key must list it), it must exist (404) and belong to
 * the key's organization (403 TRACK_WEBSITE_SCOPE_MISMATCH).
 */
function keyWebsite(ctx: RouteContext<ClientIdQuery>, key: ApiKeyRecord, body: IdentifyBody): Website | SimError {
  const websiteId = body.websiteId;
  if (websiteId === undefined || websiteId.length === 0) return basketError('IDENTIFY_MISSING_WEBSITE_ID');
  if (key.websiteIds !== null && !key.websiteIds.includes(websiteId)) return basketError('TRACK_MISSING_SCOPE');
  const website = ctx.state.websites.get(websiteId);
  if (!website) return basketError('TRACK_WEBSITE_NOT_FOUND');
  if (website.organizationId !== key.organizationId) return basketError('TRACK_WEBSITE_SCOPE_MISMATCH');
  return website;
}

/** The profile id as the service keeps it: control characters removed, trimmed, at most 128 characters. */
function profileIdOf(body: IdentifyBody): string {
  return sanitizeText(body.profileId, IDENTIFY_LIMITS.profileId);
}

/** Linking a visitor to a profile (live `apps/basket/src/routes/identify.ts`; no SPEC.md counterpart). */
export const identifyRoutes = [
  defineIngestRoute<IdentifyBody, IdentifyAccess, string, ClientIdQuery>({
    method: 'POST',
    path: '/identify',
    access: { kind: 'ingest', scope: 'track:events' },
    summary:
      'Link a profile id to a visitor and merge its traits: with an API key (track:events, websiteId in the body; 600 per 60 s per key), or with the website’s client id (?client_id= or databuddy-client-id; 60 per 60 s per client id and IP). Refusals use the ingestion service’s envelope.',
    query: clientIdQuerySchema,
    body: identifyBodySchema,
    bodyError: invalidEventSchema,
    shapeRefusal: asIdentifyEnvelope,
    responses: {
      200: { description: 'The profile was stored (traits merged, the anonymous id linked)', schema: identifyResponseSchema },
      204: { description: 'Without an API key, the user agent is a bot’s: nothing is stored, empty body' },
      400: basketRefusal('The body does not have the accepted shape or the profile id is empty once cleaned (basket.INVALID_EVENT_SCHEMA), an API key names no websiteId (basket.IDENTIFY_MISSING_WEBSITE_ID), no client id (basket.INGEST_MISSING_CLIENT_ID) or one no website has (basket.INGEST_INVALID_CLIENT_ID)'),
      403: basketRefusal('The key lacks track:events or does not reach the website (basket.TRACK_MISSING_SCOPE), the website belongs to another organization (basket.TRACK_WEBSITE_SCOPE_MISMATCH), or, without a key, an Origin or client IP the website does not allow (basket.INGEST_ORIGIN_NOT_AUTHORIZED, basket.INGEST_IP_NOT_AUTHORIZED)'),
      404: basketRefusal('The website does not exist (basket.TRACK_WEBSITE_NOT_FOUND)'),
      413: BASKET_TOO_LARGE,
      429: basketRefusal('Over 600 requests in 60 s for this key, or 60 for this client id and IP (basket.IDENTIFY_RATE_LIMITED)'),
      503: basketRefusal('The simulator’s profile storage is full (basket.DELIVERY_UNAVAILABLE), or admission is unavailable'),
    },
    authorize(ctx, body) {
      const { principal } = ctx;
      if (principal.kind === 'apikey') {
        const website = keyWebsite(ctx, principal.key, body);
        return 'code' in website ? website : { kind: 'key', key: principal.key, website };
      }
      const sender = authenticateClientId(ctx);
      if ('code' in sender) return sender;
      const verdict = classifyUserAgent(sender.userAgent, ctx.profile);
      return { kind: 'client', website: sender.website, ip: sender.ip, bot: verdict.action !== 'allow', missingUserAgent: missingUserAgent(verdict) };
    },
    windowRule(access) {
      if (access.kind === 'key') return identifyRule(access.key.id, access.website.id, '');
      return access.bot ? null : identifyRule(null, access.website.id, access.ip);
    },
    validate(_ctx, body, access) {
      if (access.kind === 'client' && access.bot) return '';
      const profileId = profileIdOf(body);
      if (profileId.length === 0) return invalidEventSchema([{ field: 'body.profileId', message: 'profileId must contain a valid identifier' }]);
      return profileId;
    },
    handle(ctx, body, access, profileId) {
      if (access.kind === 'client') warnMissingUserAgent(ctx, access.missingUserAgent);
      if (access.kind === 'client' && access.bot) return NO_CONTENT;
      const anonymousId = body.anonymousId === undefined || body.anonymousId === null || body.anonymousId.length === 0 ? null : body.anonymousId;
      const store = ctx.state.profiles;
      const stored = store.identify({ websiteId: access.website.id, profileId, anonymousId, traits: body.traits ?? null }, ctx.now);
      if (!stored.ok) {
        const { maxProfiles, maxAliases, maxChars } = store.limits;
        const bound = stored.reason === 'profiles' ? `${maxProfiles} profiles` : stored.reason === 'aliases' ? `${maxAliases} aliases` : `${maxChars} characters of profile text`;
        return eventStorageFull(`The simulator keeps at most ${bound}; profile ${truncate(profileId, 100)} was not stored. Reset it (POST /__sim/reset).`);
      }
      return ok({ status: 'success', type: 'identify' });
    },
  }),
];
