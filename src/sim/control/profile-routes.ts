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
 * What `POST /identify` stored, for tests: the profiles of a website with their traits, display
 * name, email and linked anonymous ids (the service keeps them in Postgres, outside the Query API).
 */
export const profileRoutes = [
  defineControlRoute<undefined, undefined, undefined, { website_id: string; profile_id?: string | undefined; limit?: number | undefined }>({
    method: 'GET',
    path: '/__sim/profiles',
    summary: 'The profiles POST /identify stored for a website (traits, display name, email, linked anonymous ids), first identified first.',
    query: identifiedProfilesQuerySchema,
    responses: {
      200: { description: 'The website’s profiles', schema: identifiedProfilesListingSchema },
      400: { description: 'No website_id, or a limit outside 1 to 1000 (VALIDATION_ERROR)', schema: errorBodySchema },
    },
    handle(ctx) {
      const { website_id: websiteId, profile_id: profileId, limit } = ctx.query;
      const store = ctx.state.profiles;
      if (profileId !== undefined) {
        const one = store.profile(websiteId, profileId);
        return ok({ websiteId, total: one ? 1 : 0, profiles: one ? [wireProfile(one)] : [] });
      }
      return ok({ websiteId, total: store.countOf(websiteId), profiles: store.profilesOf(websiteId, limit ?? DEFAULT_LIMIT).map(wireProfile) });
    },
  }),
];
