import { errorBodySchema } from '../../contract/errors.js';
import { deletedResponseSchema, listQuerySchema, organizationQuerySchema } from '../../contract/manage/common.js';
import {
  createMonitorSchema,
  monitorListResponseSchema,
  monitorResponseSchema,
  updateMonitorSchema,
  type CreateMonitor,
  type ManagedMonitor,
  type UpdateMonitor,
} from '../../contract/manage/monitors.js';
import type { UptimeMonitor } from '../model/entities.js';
import { defineRoute, type RouteContext } from '../routing/route.js';
import type { SimState } from '../state.js';
import { authorizeItem, MONITOR, reaches, resolveCaller, type Caller, type Found } from './access.js';
import { BAD_PAGE, checkWebsiteRef, deletedReply, inCreationOrder, iso, itemReply, listReply, pageRequest, type PageRequest } from './kit.js';

const READ = 'read:monitors';
const WRITE = 'write:monitors';

/** Seconds between checks of a monitor created without `intervalSeconds`. */
export const DEFAULT_INTERVAL_SECONDS = 60;

const NOT_FOUND = { description: 'No monitor has this id (NOT_FOUND)', schema: errorBodySchema };

/** An uptime monitor as the management routes return it. */
export function monitorWire(monitor: UptimeMonitor): ManagedMonitor {
  return {
    id: monitor.id,
    organizationId: monitor.organizationId,
    websiteId: monitor.websiteId,
    name: monitor.name,
    url: monitor.url,
    intervalSeconds: monitor.intervalSeconds,
    paused: monitor.paused ?? false,
    createdAt: iso(monitor.createdAt),
    updatedAt: iso(monitor.updatedAt ?? monitor.createdAt),
  };
}

/** Removes a monitor and takes it off every status page that shows it. */
function deleteMonitor(state: SimState, monitorId: string, now: number): void {
  state.monitors.delete(monitorId);
  for (const page of state.manage.statusPages.values()) {
    if (page.monitorIds.includes(monitorId)) {
      state.manage.statusPages.set(page.id, { ...page, monitorIds: page.monitorIds.filter((id) => id !== monitorId), updatedAt: now });
    }
  }
}

function setPaused(ctx: RouteContext, monitor: UptimeMonitor, paused: boolean): UptimeMonitor {
  if ((monitor.paused ?? false) === paused) return monitor;
  const next: UptimeMonitor = { ...monitor, paused, updatedAt: ctx.now };
  ctx.state.monitors.set(monitor.id, next);
  return next;
}

const byId = authorizeItem<UptimeMonitor>(MONITOR, (ctx, id) => ctx.state.monitors.get(id));

function pauseRoute(paused: boolean) {
  return defineRoute<undefined, Found<UptimeMonitor>>({
    method: 'POST',
    path: `/v1/monitors/:id/${paused ? 'pause' : 'resume'}`,
    family: 'manage',
    access: { kind: 'key', scope: WRITE },
    summary: paused
      ? 'Pause a monitor (idempotent): status pages show it as paused.'
      : 'Resume a paused monitor (idempotent).',
    query: organizationQuerySchema,
    responses: { 200: { description: 'The monitor', schema: monitorResponseSchema }, 404: NOT_FOUND },
    authorize: byId,
    handle: (ctx, _body, { item }) => itemReply(ctx, monitorWire(setPaused(ctx, item, paused))),
  });
}

/** Uptime monitors: read:monitors lists and reads; write:monitors creates, changes, pauses, resumes and deletes. */
export const monitorRoutes = [
  defineRoute<undefined, Caller, PageRequest>({
    method: 'GET',
    path: '/v1/monitors',
    family: 'manage',
    access: { kind: 'key', scope: READ },
    summary: 'List the uptime monitors of the organization the caller reaches, by creation.',
    query: listQuerySchema,
    responses: { 200: { description: 'A page of monitors', schema: monitorListResponseSchema }, 400: BAD_PAGE },
    authorize: (ctx) => resolveCaller(ctx),
    validate: (ctx) => pageRequest(ctx),
    handle(ctx, _body, caller, page) {
      const items = inCreationOrder([...ctx.state.monitors.values()].filter((m) => reaches(caller, m)));
      return listReply(ctx, items, page, monitorWire);
    },
  }),
  defineRoute<CreateMonitor, Caller>({
    method: 'POST',
    path: '/v1/monitors',
    family: 'manage',
    access: { kind: 'key', scope: WRITE },
    summary: 'Create an uptime monitor; its checks are generated and queried with schedule_id.',
    query: organizationQuerySchema,
    body: createMonitorSchema,
    responses: { 201: { description: 'The created monitor', schema: monitorResponseSchema } },
    authorize: (ctx) => resolveCaller(ctx),
    validate: (ctx, body, caller) => checkWebsiteRef(ctx, caller, body.websiteId ?? null),
    handle(ctx, body, caller) {
      const monitor: UptimeMonitor = {
        id: ctx.state.manage.ids.next('mon'),
        organizationId: caller.organizationId,
        websiteId: body.websiteId ?? null,
        name: body.name,
        url: body.url,
        intervalSeconds: body.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS,
        paused: false,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      ctx.state.monitors.set(monitor.id, monitor);
      return itemReply(ctx, monitorWire(monitor), 201);
    },
  }),
  defineRoute<undefined, Found<UptimeMonitor>>({
    method: 'GET',
    path: '/v1/monitors/:id',
    family: 'manage',
    access: { kind: 'key', scope: READ },
    summary: 'Get an uptime monitor.',
    query: organizationQuerySchema,
    responses: { 200: { description: 'The monitor', schema: monitorResponseSchema }, 404: NOT_FOUND },
    authorize: byId,
    handle: (ctx, _body, { item }) => itemReply(ctx, monitorWire(item)),
  }),
  defineRoute<UpdateMonitor, Found<UptimeMonitor>>({
    method: 'PATCH',
    path: '/v1/monitors/:id',
    family: 'manage',
    access: { kind: 'key', scope: WRITE },
    summary: 'Change an uptime monitor: name, url, intervalSeconds or websiteId.',
    query: organizationQuerySchema,
    body: updateMonitorSchema,
    responses: { 200: { description: 'The changed monitor', schema: monitorResponseSchema }, 404: NOT_FOUND },
    authorize: byId,
    validate: (ctx, body, { caller }) => (body.websiteId === undefined ? undefined : checkWebsiteRef(ctx, caller, body.websiteId)),
    handle(ctx, body, { item }) {
      const next: UptimeMonitor = {
        ...item,
        name: body.name ?? item.name,
        url: body.url ?? item.url,
        intervalSeconds: body.intervalSeconds ?? item.intervalSeconds,
        websiteId: body.websiteId === undefined ? item.websiteId : body.websiteId,
        updatedAt: ctx.now,
      };
      ctx.state.monitors.set(item.id, next);
      if (next.intervalSeconds !== item.intervalSeconds) {
        ctx.state.traffic.clear();
        ctx.state.results.clear();
      }
      return itemReply(ctx, monitorWire(next));
    },
  }),
  defineRoute<undefined, Found<UptimeMonitor>>({
    method: 'DELETE',
    path: '/v1/monitors/:id',
    family: 'manage',
    access: { kind: 'key', scope: WRITE },
    summary: 'Delete an uptime monitor; status pages stop showing it.',
    query: organizationQuerySchema,
    responses: { 200: { description: 'Deleted', schema: deletedResponseSchema }, 404: NOT_FOUND },
    authorize: byId,
    handle(ctx, _body, { item }) {
      deleteMonitor(ctx.state, item.id, ctx.now);
      return deletedReply(ctx, item.id);
    },
  }),
  pauseRoute(true),
  pauseRoute(false),
];
