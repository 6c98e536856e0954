import { errorBodySchema } from '../../contract/errors.js';
import {
  incidentSchemas,
  incidentUpdateBodySchema,
  pageMonitorsBodySchema,
  pageMonitorsResponseSchema,
  publicStatusPageResponseSchema,
  statusPageSchemas,
  type CreateIncident,
  type CreateStatusPage,
  type IncidentUpdateBody,
  type PageMonitorsBody,
  type UpdateIncident,
  type UpdateStatusPage,
} from '../../contract/manage/status-pages.js';
import { accessDenied, notFound, validationError, type SimError } from '../errors.js';
import { defineRoute, type RouteContext } from '../routing/route.js';
import { authorizeItem, INCIDENT, reaches, STATUS_PAGE, type Caller, type Found } from './access.js';
import { checkWebsiteRef, itemReply, stampItem, taken } from './kit.js';
import { defineResource, itemAction, type ParentSpec } from './resource.js';
import type { Incident, StatusPage } from './model.js';
import { deleteStatusPage, incidentWire, pageBySlug, publicStatusPage, statusPageWire, withUpdate } from './status-pages.js';

const READ = 'read:status_pages';
const WRITE = 'write:status_pages';

const PAGE_NOT_FOUND = { description: 'No status page has this id (NOT_FOUND)', schema: errorBodySchema };
const INCIDENT_NOT_FOUND = { description: 'No status page or incident of that page has this id (NOT_FOUND)', schema: errorBodySchema };
const SLUG_CONFLICT = { description: 'The slug is taken (CONFLICT)', schema: errorBodySchema };

const pageById =
  authorizeItem<StatusPage>(STATUS_PAGE, (ctx, id) => ctx.state.manage.statusPages.get(id));

function slugTaken(ctx: RouteContext, slug: string, exceptId?: string): SimError | undefined {
  const other = pageBySlug(ctx.state, slug);
  return other && other.id !== exceptId ? taken('Slug', slug, 'by another status page') : undefined;
}

/**
 * Checks the monitors a page is to show: each must be a monitor of the caller's organization
 * (400 naming `body.monitorIds[i]` otherwise) that the caller reaches (403 ACCESS_DENIED).
 */
function checkMonitors(ctx: RouteContext, caller: Caller, monitorIds: readonly string[]): SimError | undefined {
  const problems = monitorIds.flatMap((id, i) => {
    const monitor = ctx.state.monitors.get(id);
    return monitor && monitor.organizationId === caller.organizationId
      ? []
      : [{ field: `body.monitorIds[${i}]`, message: `No monitor ${id} in organization ${caller.organizationId}` }];
  });
  if (problems.length > 0) return validationError(problems);
  const outOfReach = monitorIds.find((id) => {
    const monitor = ctx.state.monitors.get(id);
    return monitor !== undefined && !reaches(caller, monitor);
  });
  return outOfReach === undefined ? undefined : { ...accessDenied('monitor'), hint: `Monitor ${outOfReach} is not attached to a website the API key is restricted to.` };
}

function pageMonitors(ctx: RouteContext, page: StatusPage) {
  const monitors = page.monitorIds.flatMap((id) => {
    const m = ctx.state.monitors.get(id);
    return m ? [{ id: m.id, name: m.name, url: m.url, paused: m.paused ?? false }] : [];
  });
  return { statusPageId: page.id, monitorIds: [...page.monitorIds], monitors };
}

/** Incidents live in their status page: reached through it, 404 when the page does not hold them. */
const incidentParent: ParentSpec<StatusPage, Incident> = {
  authorize: pageById,
  holds: (page, incident) => incident.statusPageId === page.id,
  notFound: PAGE_NOT_FOUND,
};

const pageRoutes = defineResource<StatusPage, CreateStatusPage, UpdateStatusPage>({
  path: '/v1/status-pages',
  kind: STATUS_PAGE,
  scopes: { read: READ, write: WRITE },
  items: (state) => state.manage.statusPages,
  wire: statusPageWire,
  schemas: statusPageSchemas,
  noun: 'status page',
  summaries: {
    create: 'Create a status page (published by default) showing monitorIds.',
    update: 'Change a status page: name, slug, description, published or websiteId.',
    delete: 'Delete a status page and its incidents.',
  },
  conflict: SLUG_CONFLICT,
  validateCreate: (ctx, body, caller) => checkWebsiteRef(ctx, caller, body.websiteId ?? null) ?? checkMonitors(ctx, caller, body.monitorIds ?? []),
  create: (ctx, body, caller) =>
    slugTaken(ctx, body.slug) ??
    stampItem(ctx, 'sp', caller.organizationId, body.websiteId ?? null, {
      name: body.name,
      slug: body.slug,
      description: body.description ?? null,
      published: body.published ?? true,
      monitorIds: [...(body.monitorIds ?? [])],
    }),
  update: (ctx, body, item) =>
    (body.slug === undefined ? undefined : slugTaken(ctx, body.slug, item.id)) ?? {
      ...item,
      name: body.name ?? item.name,
      slug: body.slug ?? item.slug,
      description: body.description === undefined ? item.description : body.description,
      published: body.published ?? item.published,
      websiteId: body.websiteId === undefined ? item.websiteId : body.websiteId,
      updatedAt: ctx.now,
    },
  remove: (state, item) => deleteStatusPage(state, item.id),
  actions: [
    itemAction<StatusPage>({
      method: 'GET',
      action: 'monitors',
      summary: 'The monitors a status page shows, in order.',
      answer: { description: 'The visible monitors', schema: pageMonitorsResponseSchema },
      handle: (ctx, _body, { item }) => itemReply(ctx, pageMonitors(ctx, item)),
    }),
    itemAction<StatusPage, PageMonitorsBody>({
      method: 'PUT',
      action: 'monitors',
      summary: 'Set which monitors a status page shows, in order (replaces the list).',
      body: pageMonitorsBodySchema,
      answer: { description: 'The visible monitors', schema: pageMonitorsResponseSchema },
      validate: (ctx, body, { caller }) => checkMonitors(ctx, caller, body.monitorIds),
      handle(ctx, body, { item }) {
        const next: StatusPage = { ...item, monitorIds: [...body.monitorIds], updatedAt: ctx.now };
        ctx.state.manage.statusPages.set(item.id, next);
        return itemReply(ctx, pageMonitors(ctx, next));
      },
    }),
  ],
});

const incidentRoutes = defineResource<Incident, CreateIncident, UpdateIncident, Found<StatusPage>>({
  path: '/v1/status-pages/:id/incidents',
  idParam: 'incidentId',
  kind: INCIDENT,
  scopes: { read: READ, write: WRITE },
  parent: incidentParent,
  items: (state) => state.manage.incidents,
  wire: incidentWire,
  schemas: incidentSchemas,
  noun: 'incident',
  summaries: {
    list: 'List the incidents of a status page, by creation.',
    create: 'Open an incident on a status page with its first update (default investigating, minor).',
    get: 'Get an incident of a status page with its timeline.',
    update: 'Change an incident: title and impact in place; a status or message adds an update to the timeline.',
  },
  notFound: INCIDENT_NOT_FOUND,
  create(ctx, body, { item: page }) {
    const { ids } = ctx.state.manage;
    const status = body.status ?? 'investigating';
    return {
      id: ids.next('inc'),
      organizationId: page.organizationId,
      statusPageId: page.id,
      title: body.title,
      status,
      impact: body.impact ?? 'minor',
      updates: [{ id: ids.next('upd'), status, message: body.message, createdAt: ctx.now }],
      resolvedAt: status === 'resolved' ? ctx.now : null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
  },
  update(ctx, body, incident) {
    const next: Incident = { ...incident, title: body.title ?? incident.title, impact: body.impact ?? incident.impact, updatedAt: ctx.now };
    return body.status !== undefined || body.message !== undefined
      ? withUpdate(next, { status: body.status, message: body.message }, ctx.now, ctx.state.manage.ids)
      : next;
  },
  actions: [
    itemAction<Incident, IncidentUpdateBody>({
      method: 'POST',
      action: 'updates',
      summary: 'Add an update to an incident’s timeline, optionally changing its status.',
      body: incidentUpdateBodySchema,
      answer: { description: 'The incident with the new update', schema: incidentSchemas.item, status: 201 },
      handle(ctx, body, { item: incident }) {
        const next = withUpdate(incident, body, ctx.now, ctx.state.manage.ids);
        ctx.state.manage.incidents.set(incident.id, next);
        return itemReply(ctx, incidentWire(next), 201);
      },
    }),
  ],
});

const publicRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/public/status-pages/:slug',
    family: 'manage',
    access: { kind: 'public' },
    summary: 'Public read of a published status page: monitors with their current state, open and recent incidents. No authentication.',
    responses: {
      200: { description: 'The public page', schema: publicStatusPageResponseSchema },
      404: { description: 'No published status page has this slug (NOT_FOUND)', schema: errorBodySchema },
    },
    handle(ctx) {
      const slug = ctx.params.slug ?? '';
      const page = pageBySlug(ctx.state, slug);
      if (!page || !page.published) return notFound({ kind: 'Status page', id: slug }, { hint: `No published status page has slug ${slug.slice(0, 100)}.` });
      return itemReply(ctx, publicStatusPage(ctx.state, page, ctx.now));
    },
  }),
];

/** Status pages, their incidents and monitor visibility (read:status_pages / write:status_pages), and the public read. */
export const statusPageRoutes = [...pageRoutes, ...incidentRoutes, ...publicRoutes];
