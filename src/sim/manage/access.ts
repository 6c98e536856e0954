import { unauthenticated } from '../auth/access.js';
import type { Principal } from '../auth/principal.js';
import { accessDenied, notFound, type SimError } from '../errors.js';
import { isError, type RouteContext } from '../routing/route.js';

/**
 * Who a management request acts as, and for which organization.
 *
 * The organization rule: a request acts for `?organization_id=` when given, else for the API
 * key's organization, else for the session's active organization. A key may name only its own
 * organization; a session any organization its user belongs to; anything else (or an unknown
 * organization) is 403 ACCESS_DENIED. Lists and creates use that organization; a resource of
 * another organization is out of reach (403 ACCESS_DENIED).
 */
export interface Caller {
  readonly principal: Exclude<Principal, { kind: 'anonymous' }>;
  readonly organizationId: string;
  /** The websites a website-restricted key reaches; null reaches the whole organization. */
  readonly websiteIds: readonly string[] | null;
}

/** A resource that belongs to an organization and, optionally, a website. */
export interface Owned {
  readonly id: string;
  readonly organizationId: string;
  readonly websiteId?: string | null;
}

/** The names a resource goes by in 404 and 403 answers. */
export interface ResourceKind {
  /** `Website`, `Link`, … (the 404 message: "Website not found"). */
  readonly label: string;
  readonly denied: Parameters<typeof accessDenied>[0];
}

export const WEBSITE: ResourceKind = { label: 'Website', denied: 'website' };
export const LINK: ResourceKind = { label: 'Link', denied: 'link' };
export const MONITOR: ResourceKind = { label: 'Monitor', denied: 'monitor' };
export const STATUS_PAGE: ResourceKind = { label: 'Status page', denied: 'status page' };
export const FLAG: ResourceKind = { label: 'Feature flag', denied: 'feature flag' };
/** An incident is reached through its status page: a page out of reach is refused as a status page. */
export const INCIDENT: ResourceKind = { label: 'Incident', denied: 'status page' };

/**
 * The caller and the organization it acts for, once the pipeline has granted access (credential
 * and scope): 403 ACCESS_DENIED for an organization out of reach.
 */
export function resolveCaller(ctx: RouteContext): Caller | SimError {
  const { principal } = ctx;
  if (principal.kind === 'anonymous') return unauthenticated(principal);
  const home = principal.kind === 'apikey' ? principal.key.organizationId : principal.user.activeOrganizationId;
  const organizationId = ctx.query.organization_id ?? home;
  const member =
    principal.kind === 'apikey'
      ? principal.key.organizationId === organizationId
      : principal.user.organizationIds.includes(organizationId);
  if (!member || !ctx.state.organizations.has(organizationId)) return accessDenied('organization');
  return { principal, organizationId, websiteIds: principal.kind === 'apikey' ? principal.key.websiteIds : null };
}

/** Whether the caller reaches what is attached to `websiteId` (null: the organization as a whole). */
export function reachesWebsite(caller: Caller, websiteId: string | null | undefined): boolean {
  return caller.websiteIds === null || (websiteId != null && caller.websiteIds.includes(websiteId));
}

/** Whether the caller has access to the whole organization (not a website-restricted key). */
export function organizationWide(caller: Caller): boolean {
  return caller.websiteIds === null;
}

/**
 * Whether a resource is in the caller's organization and reach. `websiteId` is the website it
 * is attached to (a website is attached to itself).
 */
export function reaches(caller: Caller, item: Owned, websiteId: string | null = item.websiteId ?? null): boolean {
  return item.organizationId === caller.organizationId && reachesWebsite(caller, websiteId);
}

/** 404 NOT_FOUND naming the resource when it does not exist, 403 ACCESS_DENIED when it is out of reach. */
export function found<T extends Owned>(
  caller: Caller,
  item: T | undefined,
  kind: ResourceKind,
  id: string,
  attachedTo: (item: T) => string | null = (i) => i.websiteId ?? null,
): T | SimError {
  if (item === undefined) return notFound({ kind: kind.label, id });
  if (!reaches(caller, item, attachedTo(item))) {
    const hint =
      item.organizationId === caller.organizationId
        ? `This ${kind.denied} is not attached to a website the API key is restricted to.`
        : `This ${kind.denied} belongs to another organization; a session of one of its members can name it with ?organization_id=.`;
    return accessDenied(kind.denied, { hint });
  }
  return item;
}

/** What an item route's `authorize` hands on: the caller and the resource it names. */
export interface Found<T> {
  readonly caller: Caller;
  readonly item: T;
}

/** An `authorize` step for routes that name one resource by the `:id` segment. */
export function authorizeItem<T extends Owned>(
  kind: ResourceKind,
  lookup: (ctx: RouteContext, id: string) => T | undefined,
  attachedTo?: (item: T) => string | null,
): (ctx: RouteContext) => Found<T> | SimError {
  return (ctx) => {
    const caller = resolveCaller(ctx);
    if (isError(caller)) return caller;
    const id = ctx.params.id ?? '';
    const item = found(caller, lookup(ctx, id), kind, id, attachedTo);
    return isError(item) ? item : { caller, item };
  };
}
