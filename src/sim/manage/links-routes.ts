import { errorBodySchema } from '../../contract/errors.js';
import { deletedResponseSchema, listQuerySchema, organizationQuerySchema } from '../../contract/manage/common.js';
import {
  createLinkSchema,
  linkListResponseSchema,
  linkResponseSchema,
  updateLinkSchema,
  type CreateLink,
  type ManagedLink,
  type UpdateLink,
} from '../../contract/manage/links.js';
import type { SimError } from '../errors.js';
import type { ShortLink } from '../model/entities.js';
import { defineRoute, type RouteContext } from '../routing/route.js';
import { authorizeItem, LINK, reaches, resolveCaller, type Caller, type Found } from './access.js';
import { BAD_PAGE, checkWebsiteRef, deletedReply, inCreationOrder, iso, itemReply, listReply, pageRequest, taken, type PageRequest } from './kit.js';

const READ = 'read:links';
const WRITE = 'write:links';

/** Mean clicks a day of a link created at run time (its analytics are generated like the fixtures'). */
export const DEFAULT_DAILY_CLICKS = 25;

/** Characters of a generated slug. */
const GENERATED_SLUG_LENGTH = 7;

const NOT_FOUND = { description: 'No link has this id (NOT_FOUND)', schema: errorBodySchema };
const CONFLICT = { description: 'The slug is taken (CONFLICT)', schema: errorBodySchema };

/** A short link as the management routes return it. */
export function linkWire(link: ShortLink): ManagedLink {
  return {
    id: link.id,
    organizationId: link.organizationId,
    websiteId: link.websiteId ?? null,
    slug: link.slug,
    targetUrl: link.targetUrl,
    title: link.title ?? null,
    createdAt: iso(link.createdAt),
    updatedAt: iso(link.updatedAt ?? link.createdAt),
  };
}

/** Whether a link other than `exceptId` has `slug` (slugs are unique across the service, case-insensitively). */
function slugTaken(ctx: RouteContext, slug: string, exceptId?: string): boolean {
  const wanted = slug.toLowerCase();
  for (const link of ctx.state.links.values()) if (link.slug.toLowerCase() === wanted && link.id !== exceptId) return true;
  return false;
}

function slugConflict(slug: string): SimError {
  return taken('Slug', slug, 'by another short link');
}

const byId = authorizeItem<ShortLink>(LINK, (ctx, id) => ctx.state.links.get(id));

/** Short links: read:links lists and reads, write:links creates, changes and deletes. */
export const linkRoutes = [
  defineRoute<undefined, Caller, PageRequest>({
    method: 'GET',
    path: '/v1/links',
    family: 'manage',
    access: { kind: 'key', scope: READ },
    summary: 'List the short links of the organization the caller reaches, by creation.',
    query: listQuerySchema,
    responses: { 200: { description: 'A page of links', schema: linkListResponseSchema }, 400: BAD_PAGE },
    authorize: (ctx) => resolveCaller(ctx),
    validate: (ctx) => pageRequest(ctx),
    handle(ctx, _body, caller, page) {
      const items = inCreationOrder([...ctx.state.links.values()].filter((l) => reaches(caller, l)));
      return listReply(ctx, items, page, linkWire);
    },
  }),
  defineRoute<CreateLink, Caller>({
    method: 'POST',
    path: '/v1/links',
    family: 'manage',
    access: { kind: 'key', scope: WRITE },
    summary: 'Create a short link (a slug is generated when none is given).',
    query: organizationQuerySchema,
    body: createLinkSchema,
    responses: { 201: { description: 'The created link', schema: linkResponseSchema }, 409: CONFLICT },
    authorize: (ctx) => resolveCaller(ctx),
    validate: (ctx, body, caller) => checkWebsiteRef(ctx, caller, body.websiteId ?? null),
    handle(ctx, body, caller) {
      if (body.slug !== undefined && slugTaken(ctx, body.slug)) return slugConflict(body.slug);
      let slug = body.slug;
      while (slug === undefined || slugTaken(ctx, slug)) slug = ctx.state.manage.ids.token(GENERATED_SLUG_LENGTH);
      const link: ShortLink = {
        id: ctx.state.manage.ids.next('link'),
        organizationId: caller.organizationId,
        websiteId: body.websiteId ?? null,
        slug,
        targetUrl: body.targetUrl,
        title: body.title ?? null,
        baseDailyClicks: DEFAULT_DAILY_CLICKS,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      ctx.state.links.set(link.id, link);
      return itemReply(ctx, linkWire(link), 201);
    },
  }),
  defineRoute<undefined, Found<ShortLink>>({
    method: 'GET',
    path: '/v1/links/:id',
    family: 'manage',
    access: { kind: 'key', scope: READ },
    summary: 'Get a short link.',
    query: organizationQuerySchema,
    responses: { 200: { description: 'The link', schema: linkResponseSchema }, 404: NOT_FOUND },
    authorize: byId,
    handle: (ctx, _body, { item }) => itemReply(ctx, linkWire(item)),
  }),
  defineRoute<UpdateLink, Found<ShortLink>>({
    method: 'PATCH',
    path: '/v1/links/:id',
    family: 'manage',
    access: { kind: 'key', scope: WRITE },
    summary: 'Change a short link: targetUrl, slug, title or websiteId.',
    query: organizationQuerySchema,
    body: updateLinkSchema,
    responses: { 200: { description: 'The changed link', schema: linkResponseSchema }, 404: NOT_FOUND, 409: CONFLICT },
    authorize: byId,
    validate: (ctx, body, { caller }) => (body.websiteId === undefined ? undefined : checkWebsiteRef(ctx, caller, body.websiteId)),
    handle(ctx, body, { item }) {
      if (body.slug !== undefined && slugTaken(ctx, body.slug, item.id)) return slugConflict(body.slug);
      const next: ShortLink = {
        ...item,
        targetUrl: body.targetUrl ?? item.targetUrl,
        slug: body.slug ?? item.slug,
        title: body.title === undefined ? (item.title ?? null) : body.title,
        websiteId: body.websiteId === undefined ? (item.websiteId ?? null) : body.websiteId,
        updatedAt: ctx.now,
      };
      ctx.state.links.set(item.id, next);
      return itemReply(ctx, linkWire(next));
    },
  }),
  defineRoute<undefined, Found<ShortLink>>({
    method: 'DELETE',
    path: '/v1/links/:id',
    family: 'manage',
    access: { kind: 'key', scope: WRITE },
    summary: 'Delete a short link.',
    query: organizationQuerySchema,
    responses: { 200: { description: 'Deleted', schema: deletedResponseSchema }, 404: NOT_FOUND },
    authorize: byId,
    handle(ctx, _body, { item }) {
      ctx.state.links.delete(item.id);
      return deletedReply(ctx, item.id);
    },
  }),
];
