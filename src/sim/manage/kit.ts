import { errorBodySchema } from '../../contract/errors.js';
import { DEFAULT_PAGE_LIMIT, organizationQuerySchema, type Pagination } from '../../contract/manage/common.js';
import { accessDenied, conflict, validationError, type SimError } from '../errors.js';
import { defineRouteGroup, ok, type Reply, type RouteContext } from '../routing/route.js';
import type { Caller } from './access.js';
import { reachesWebsite } from './access.js';
import { formatIso } from '../text.js';

/**
 * Declares a management route: family `manage`, and the `?organization_id=` query of SPEC 5.3
 * unless the route names another query schema (lists name `listQuerySchema`).
 */
export const defineManageRoute = defineRouteGroup({ family: 'manage', query: organizationQuerySchema });

/** An instant as answers carry it (see {@link formatIso}). */
export const iso = formatIso;

/** Which page of a list a request asks for. */
export interface PageRequest {
  readonly page: number;
  readonly limit: number;
}

/** The page `?page=&limit=` asks for (defaults 1 and 20); the pipeline has validated both against `listQuerySchema`. */
export function pageRequest(ctx: RouteContext): PageRequest {
  return { page: Number(ctx.query.page ?? 1), limit: Number(ctx.query.limit ?? DEFAULT_PAGE_LIMIT) };
}

/** The documented 400 of a list route. */
export const BAD_PAGE = { description: 'page or limit is not usable (VALIDATION_ERROR), details name it', schema: errorBodySchema };

/** Sorts by createdAt, then id: the order of every management list. */
export function inCreationOrder<T extends { readonly createdAt: number; readonly id: string }>(items: Iterable<T>): T[] {
  return [...items].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** One page of `items` (already filtered and ordered) as `{ success, requestId, data, pagination }`. */
export function listReply<T>(ctx: RouteContext, items: readonly T[], page: PageRequest, wire: (item: T) => unknown): Reply {
  const offset = (page.page - 1) * page.limit;
  const data = items.slice(offset, offset + page.limit).map(wire);
  const pagination: Pagination = { page: page.page, limit: page.limit, total: items.length, hasMore: offset + data.length < items.length };
  return ok({ success: true, requestId: ctx.requestId, data, pagination });
}

/**
 * A new item attached to a website (null: the organization as a whole), its fields in the order
 * the wire has them: a fresh id with `prefix`, the organization, the website, its own `fields`,
 * and now as both timestamps. `fields` is evaluated first: an id it draws comes before the item's.
 */
export function stampItem<Fields extends object>(ctx: RouteContext, prefix: string, organizationId: string, websiteId: string | null, fields: Fields) {
  return { id: ctx.state.manage.ids.next(prefix), organizationId, websiteId, ...fields, createdAt: ctx.now, updatedAt: ctx.now };
}

/** `{ success, requestId, data }`. */
export function itemReply(ctx: RouteContext, data: unknown, status = 200): Reply {
  return ok({ success: true, requestId: ctx.requestId, data }, status);
}

/** The answer of a delete. */
export function deletedReply(ctx: RouteContext, id: string): Reply {
  return itemReply(ctx, { id, deleted: true });
}

/**
 * Checks a `websiteId` a body names: it must be a website of the caller's organization (400
 * VALIDATION_ERROR naming the field otherwise) that the caller reaches (403 ACCESS_DENIED).
 * A website-restricted key must attach what it creates to one of its websites.
 */
export function checkWebsiteRef(ctx: RouteContext, caller: Caller, websiteId: string | null, field = 'body.websiteId'): SimError | undefined {
  if (websiteId === null) {
    if (reachesWebsite(caller, null)) return undefined;
    return accessDenied('organization', { hint: `A website-restricted API key reaches only what is attached to its websites: name one of them in ${field.replace(/^body\./, '')}.` });
  }
  const website = ctx.state.websites.get(websiteId);
  if (!website || website.organizationId !== caller.organizationId) {
    return validationError([{ field, message: `No website ${websiteId} in organization ${caller.organizationId}` }]);
  }
  if (!reachesWebsite(caller, websiteId)) {
    return accessDenied('website', { hint: 'The API key is restricted to other websites.' });
  }
  return undefined;
}

/** 409 CONFLICT: a unique field is taken. */
export function taken(what: string, value: string, scopeText: string): SimError {
  return conflict(`${what} already in use`, `${what} ${value} is already used ${scopeText}; choose another.`);
}
