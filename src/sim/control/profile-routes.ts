import { errorBodySchema } from '../../contract/errors.js';
import { identifiedProfilesListingSchema, identifiedProfilesQuerySchema } from '../../contract/ingest.js';
import type { IdentifiedProfile } from '../ingest/profile-store.js';
import { ok } from '../routing/route.js';
import { formatIso } from '../text.js';
import { defineControlRoute } from './control-route.js';

/** Profiles a listing shows unless told otherwise. */
const DEFAULT_LIMIT = 100;

function wireProfile(profile: IdentifiedProfile) {
  return { ...profile, firstIdentifiedAt: formatIso(profile.firstIdentifiedAt), lastIdentifiedAt: formatIso(profile.lastIdentifiedAt) };
}

/**
 * What `POST /identify` stored, for tests: the profiles of every website, or of one, with their
 * traits, display name, email and linked anonymous ids (the service keeps them in Postgres,
 * outside the Query API).
 */
export const profileRoutes = [
  defineControlRoute<undefined, undefined, undefined, { website_id?: string | undefined; profile_id?: string | undefined; limit?: number | undefined }>({
    method: 'GET',
    path: '/__sim/profiles',
    summary: 'The profiles POST /identify stored (traits, display name, email, linked anonymous ids), first identified first: every website’s, or one website’s with website_id.',
    query: identifiedProfilesQuerySchema,
    responses: {
      200: { description: 'The profiles (websiteId null when the listing spans every website)', schema: identifiedProfilesListingSchema },
      400: { description: 'An empty website_id, or a limit outside 1 to 1000 (VALIDATION_ERROR)', schema: errorBodySchema },
    },
    handle(ctx) {
      const { website_id: websiteId, profile_id: profileId, limit } = ctx.query;
      const listed = ctx.state.profiles.list({ ...(websiteId !== undefined ? { websiteId } : {}), ...(profileId !== undefined ? { profileId } : {}) }, limit ?? DEFAULT_LIMIT);
      return ok({ websiteId: websiteId ?? null, total: listed.total, profiles: listed.profiles.map(wireProfile) });
    },
  }),
];
