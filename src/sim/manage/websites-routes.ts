import { errorBodySchema } from '../../contract/errors.js';
import { deletedResponseSchema, listQuerySchema, organizationQuerySchema } from '../../contract/manage/common.js';
import {
  createWebsiteSchema,
  updateWebsiteSchema,
  websiteListResponseSchema,
  websiteResponseSchema,
  type CreateWebsite,
  type UpdateWebsite,
} from '../../contract/manage/websites.js';
import { accessDenied } from '../errors.js';
import type { Website } from '../model/entities.js';
import { defineRoute, isError } from '../routing/route.js';
import { authorizeItem, organizationWide, reaches, resolveCaller, WEBSITE, type Caller, type Found } from './access.js';
import { BAD_PAGE, deletedReply, inCreationOrder, itemReply, listReply, pageRequest, taken, type PageRequest } from './kit.js';
import { DEFAULT_TRAFFIC_SIZE, deleteWebsite, domainTaken, SESSIONS_BY_SIZE, websiteWire } from './websites.js';

const SCOPE = 'manage:websites';
const NOT_FOUND = { description: 'No website has this id (NOT_FOUND)', schema: errorBodySchema };
const CONFLICT = { description: 'Another website of the organization has this domain (CONFLICT)', schema: errorBodySchema };
const byId = authorizeItem<Website>(WEBSITE, (ctx, id) => ctx.state.websites.get(id), (w) => w.id);

/** Websites CRUD (manage:websites). Created websites get generated traffic and appear in the Query API. */
export const websiteRoutes = [
  defineRoute<undefined, Caller, PageRequest>({
    method: 'GET',
    path: '/v1/websites',
    family: 'manage',
    access: { kind: 'key', scope: SCOPE },
    summary: 'List the websites of the organization the caller reaches, by creation.',
    query: listQuerySchema,
    responses: { 200: { description: 'A page of websites', schema: websiteListResponseSchema }, 400: BAD_PAGE },
    authorize: (ctx) => resolveCaller(ctx),
    validate: (ctx) => pageRequest(ctx),
    handle(ctx, _body, caller, page) {
      const items = inCreationOrder([...ctx.state.websites.values()].filter((w) => reaches(caller, w, w.id)));
      return listReply(ctx, items, page, websiteWire);
    },
  }),
  defineRoute<CreateWebsite, Caller>({
    method: 'POST',
    path: '/v1/websites',
    family: 'manage',
    access: { kind: 'key', scope: SCOPE },
    summary: 'Create a website; it gets generated traffic of trafficSize (default small, ~150 sessions a day).',
    query: organizationQuerySchema,
    body: createWebsiteSchema,
    responses: { 201: { description: 'The created website', schema: websiteResponseSchema }, 409: CONFLICT },
    authorize(ctx) {
      const caller = resolveCaller(ctx);
      if (isError(caller) || organizationWide(caller)) return caller;
      return { ...accessDenied('organization'), hint: 'A website-restricted API key cannot create websites.' };
    },
    handle(ctx, body, caller) {
      if (domainTaken(ctx.state, caller.organizationId, body.domain)) return taken('Domain', body.domain, 'by a website of this organization');
      const size = body.trafficSize ?? DEFAULT_TRAFFIC_SIZE;
      const website: Website = {
        id: ctx.state.manage.ids.next('web'),
        organizationId: caller.organizationId,
        name: body.name,
        domain: body.domain,
        isPublic: body.isPublic ?? false,
        createdAt: ctx.now,
        size,
        baseDailySessions: SESSIONS_BY_SIZE[size],
        updatedAt: ctx.now,
      };
      ctx.state.websites.set(website.id, website);
      return itemReply(ctx, websiteWire(website), 201);
    },
  }),
  defineRoute<undefined, Found<Website>>({
    method: 'GET',
    path: '/v1/websites/:id',
    family: 'manage',
    access: { kind: 'key', scope: SCOPE },
    summary: 'Get a website.',
    query: organizationQuerySchema,
    responses: { 200: { description: 'The website', schema: websiteResponseSchema }, 404: NOT_FOUND },
    authorize: byId,
    handle: (ctx, _body, { item }) => itemReply(ctx, websiteWire(item)),
  }),
  defineRoute<UpdateWebsite, Found<Website>>({
    method: 'PATCH',
    path: '/v1/websites/:id',
    family: 'manage',
    access: { kind: 'key', scope: SCOPE },
    summary: 'Change a website: name, domain, isPublic or trafficSize.',
    query: organizationQuerySchema,
    body: updateWebsiteSchema,
    responses: { 200: { description: 'The changed website', schema: websiteResponseSchema }, 404: NOT_FOUND, 409: CONFLICT },
    authorize: byId,
    handle(ctx, body, { item }) {
      if (body.domain !== undefined && domainTaken(ctx.state, item.organizationId, body.domain, item.id)) {
        return taken('Domain', body.domain, 'by a website of this organization');
      }
      const size = body.trafficSize ?? item.size;
      const next: Website = {
        ...item,
        name: body.name ?? item.name,
        domain: body.domain ?? item.domain,
        isPublic: body.isPublic ?? item.isPublic,
        size,
        baseDailySessions: size === item.size ? item.baseDailySessions : SESSIONS_BY_SIZE[size],
        updatedAt: ctx.now,
      };
      ctx.state.websites.set(item.id, next);
      if (size !== item.size) {
        ctx.state.traffic.clear();
        ctx.state.results.clear();
      }
      return itemReply(ctx, websiteWire(next));
    },
  }),
  defineRoute<undefined, Found<Website>>({
    method: 'DELETE',
    path: '/v1/websites/:id',
    family: 'manage',
    access: { kind: 'key', scope: SCOPE },
    summary: 'Delete a website; its links, monitors, status pages and flags stay, detached from it.',
    query: organizationQuerySchema,
    responses: { 200: { description: 'Deleted', schema: deletedResponseSchema }, 404: NOT_FOUND },
    authorize: byId,
    handle(ctx, _body, { item }) {
      deleteWebsite(ctx.state, item.id, ctx.now);
      return deletedReply(ctx, item.id);
    },
  }),
];
