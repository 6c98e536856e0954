import type { Scope } from '../../contract/scopes.js';
import { suggest } from '../text.js';
import { accessDenied, authRequired, missingProjectId, type SimError } from '../errors.js';
import type { Website } from '../model/entities.js';
import type { QueryScope, QueryTypeDefinition } from '../query/engine/definition.js';
import type { SimState } from '../state.js';
import { followsLive, type Profile } from '../profile.js';
import { isPublicType } from '../query/registry.js';
import type { Principal } from './principal.js';

/** What a 401 says when no credential was presented at all. */
export const NO_CREDENTIAL_HINT =
  'Send an API key in the x-api-key header or as Authorization: Bearer <key>, or sign in for a session cookie.';

/**
 * 401 for an anonymous principal, with the reason its credential was refused; under `live`
 * (`auth-codes`, carried by `principal.live`) the live challenge and no hint.
 */
export function unauthenticated(principal: Principal): SimError {
  if (principal.live) return authRequired(null, {}, principal.live.challenge);
  return authRequired(principal.kind === 'anonymous' && principal.problem ? principal.problem : NO_CREDENTIAL_HINT);
}

/**
 * Whether the principal holds `scope`. Dashboard users act with every scope of their
 * organizations. Under `live` (`auth-codes`) a key on a query route holds read:data and
 * read:monitors as far as the route is concerned: the live derive admitted it for holding one
 * of them and the routes check no scope of their own (a monitor still needs read:monitors, see
 * {@link resolveQueryScope}).
 */
export function hasScope(principal: Principal, scope: Scope): boolean {
  if (principal.kind === 'apikey') {
    if (principal.live?.queryRoute && (scope === 'read:data' || scope === 'read:monitors')) return true;
    return principal.key.scopes.includes(scope);
  }
  return principal.kind === 'user';
}

/** The organization a request acts for when it names none: a global key's, or a session's active one. */
export function defaultOrganization(principal: Principal): string | null {
  if (principal.kind === 'apikey') return principal.key.websiteIds === null ? principal.key.organizationId : null;
  if (principal.kind === 'user') return principal.user.activeOrganizationId;
  return null;
}

/** Whether the principal belongs to (a global key of, a member of) `organizationId`. */
export function inOrganization(principal: Principal, organizationId: string): boolean {
  if (principal.kind === 'apikey') return principal.key.websiteIds === null && principal.key.organizationId === organizationId;
  if (principal.kind === 'user') return principal.user.organizationIds.includes(organizationId);
  return false;
}

/**
 * Whether the principal reaches a website: global keys and members by organization, restricted
 * keys by list and organization (the newest service checks a website-scoped key's organization
 * too; keys made here list only websites of their own organization, so both profiles agree).
 */
export function canReachWebsite(principal: Principal, website: Website): boolean {
  if (principal.kind === 'apikey') {
    const { key } = principal;
    return key.organizationId === website.organizationId && (key.websiteIds === null || key.websiteIds.includes(website.id));
  }
  if (principal.kind === 'user') return principal.user.organizationIds.includes(website.organizationId);
  return false;
}

/**
 * The websites a principal can list, in creation order. Under `live` (`auth-codes`) a key lists
 * only the websites whose scopes hold read:data (`accessible-websites.ts`): none for a key
 * without read:data, whose scopes are those of every website it reaches.
 */
export function reachableWebsites(principal: Principal, state: SimState): Website[] {
  if (principal.kind === 'apikey' && principal.live?.queryRoute && !principal.key.scopes.includes('read:data')) return [];
  if (principal.kind === 'user') {
    // The active organization's websites, to a member only: none to a session whose active
    // organization is unset (empty) or one the user is not a member of, as the service lists.
    const org = principal.user.activeOrganizationId;
    if (!principal.user.organizationIds.includes(org)) return [];
    return [...state.websites.values()].filter((w) => w.organizationId === org);
  }
  return [...state.websites.values()].filter((w) => canReachWebsite(principal, w));
}

/** The resource ids a query may name, in the query string. */
export interface QueryIds {
  readonly website_id?: string | undefined;
  readonly link_id?: string | undefined;
  readonly schedule_id?: string | undefined;
  readonly organization_id?: string | undefined;
}

function websitesOf(state: SimState, organizationId: string): Website[] {
  return [...state.websites.values()].filter((w) => w.organizationId === organizationId);
}

/**
 * The public website a query may read without a credential (SPEC 4.3): one named by
 * `website_id`, public, with every named type public under the profile and no link or monitor
 * named; else null. Under `live` (`public-policy`) a request that carries any filter (`filtered`,
 * in any item of a batch) reads nothing publicly: it needs the website's permission.
 */
export function publicWebsite(
  ids: QueryIds,
  types: readonly QueryTypeDefinition[],
  state: SimState,
  profile: Profile,
  filtered = false,
): Website | null {
  if (ids.website_id === undefined || ids.link_id !== undefined || ids.schedule_id !== undefined) return null;
  if (filtered && followsLive(profile, 'public-policy')) return null;
  const website = state.websites.get(ids.website_id);
  return website?.isPublic === true && types.length > 0 && types.every((t) => isPublicType(t, profile)) ? website : null;
}

/** The scopes a query needs: those of the types it names (read:data when it names none). */
export function scopesOfTypes(types: readonly QueryTypeDefinition[]): Scope[] {
  const needed = new Set<Scope>(types.map((t) => t.scope));
  if (needed.size === 0) needed.add('read:data');
  return [...needed];
}

/** Websites a denial's did-you-mean compares an id with, at most. */
const MAX_SUGGESTED_FROM = 1000;

/**
 * 403 ACCESS_DENIED for a website id the caller does not reach, with a hint naming the id and
 * the nearest one the caller does reach. The same words whether the website exists or not, so
 * the hint reveals nothing the caller cannot see in `GET /v1/query/websites`.
 */
export function websiteDenied(principal: Principal, websiteId: string, state: SimState): SimError {
  const reachable = reachableWebsites(principal, state).slice(0, MAX_SUGGESTED_FROM).map((w) => w.id);
  const near = suggest(websiteId, reachable);
  const shown = websiteId.length > 64 ? `${websiteId.slice(0, 63)}…` : websiteId;
  return accessDenied('website', {
    hint: `This credential reaches no website '${shown}'${near !== undefined ? `; did you mean '${near}'?` : '.'} GET /v1/query/websites lists the websites it reaches.`,
  });
}

/**
 * Decides what a query runs against, once the pipeline has granted access (credential and
 * scopes). The named id wins in the order link, schedule, website, organization; without one,
 * a global key or a session supplies its organization. Public websites answer public types to
 * anyone (under `live`, unfiltered requests only: `filtered` says the body carries a filter).
 * Resource out of reach (or unknown) → 403 ACCESS_DENIED; no resource named and none implied →
 * 400 MISSING_PROJECT_ID.
 */
export function resolveQueryScope(
  principal: Principal,
  ids: QueryIds,
  types: readonly QueryTypeDefinition[],
  state: SimState,
  profile: Profile,
  filtered = false,
): QueryScope | SimError {
  const open = publicWebsite(ids, types, state, profile, filtered);
  if (open) return { kind: 'websites', websites: [open] };
  if (principal.kind === 'anonymous') return unauthenticated(principal);
  if (ids.link_id !== undefined) {
    const link = state.links.get(ids.link_id);
    return link && inOrganization(principal, link.organizationId) ? { kind: 'link', link } : accessDenied('link');
  }
  if (ids.schedule_id !== undefined) {
    // auth-codes: live's verifyScheduleAccess needs read:monitors of a key (403 ACCESS_DENIED).
    if (principal.kind === 'apikey' && followsLive(profile, 'auth-codes') && !principal.key.scopes.includes('read:monitors')) {
      return accessDenied('monitor');
    }
    const monitor = state.monitors.get(ids.schedule_id);
    const reach =
      monitor !== undefined &&
      (inOrganization(principal, monitor.organizationId) ||
        (principal.kind === 'apikey' &&
          principal.key.organizationId === monitor.organizationId &&
          monitor.websiteId !== null &&
          (principal.key.websiteIds ?? []).includes(monitor.websiteId)));
    return reach && monitor ? { kind: 'monitor', monitor } : accessDenied('monitor');
  }
  if (ids.website_id !== undefined) {
    const website = state.websites.get(ids.website_id);
    return website && canReachWebsite(principal, website) ? { kind: 'websites', websites: [website] } : websiteDenied(principal, ids.website_id, state);
  }
  const organizationId = ids.organization_id ?? defaultOrganization(principal);
  if (organizationId === null) return missingProjectId();
  if (!state.organizations.has(organizationId) || !inOrganization(principal, organizationId)) {
    return accessDenied('organization');
  }
  return { kind: 'websites', websites: websitesOf(state, organizationId), organizationId };
}
