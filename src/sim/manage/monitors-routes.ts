import { monitorSchemas, type CreateMonitor, type ManagedMonitor, type UpdateMonitor } from '../../contract/manage/monitors.js';
import type { UptimeMonitor } from '../model/entities.js';
import { type RouteContext } from '../routing/route.js';
import type { SimState } from '../state.js';
import { MONITOR } from './access.js';
import { iso, itemReply, stampItem } from './kit.js';
import { defineResource, itemAction } from './resource.js';

/** Seconds between checks of a monitor created without `intervalSeconds`. */
export const DEFAULT_INTERVAL_SECONDS = 60;

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

/** `POST /v1/monitors/:id/pause` or `/resume`: idempotent. */
function pauseAction(paused: boolean) {
  return itemAction<UptimeMonitor>({
    method: 'POST',
    action: paused ? 'pause' : 'resume',
    summary: paused
      ? 'Pause a monitor (idempotent): status pages show it as paused.'
      : 'Resume a paused monitor (idempotent).',
    answer: { description: 'The monitor', schema: monitorSchemas.item },
    handle: (ctx, _body, { item }) => itemReply(ctx, monitorWire(setPaused(ctx, item, paused))),
  });
}

/** Uptime monitors: read:monitors lists and reads; write:monitors creates, changes, pauses, resumes and deletes. */
export const monitorRoutes = defineResource<UptimeMonitor, CreateMonitor, UpdateMonitor>({
  path: '/v1/monitors',
  kind: MONITOR,
  scopes: { read: 'read:monitors', write: 'write:monitors' },
  items: (state) => state.monitors,
  wire: monitorWire,
  schemas: monitorSchemas,
  noun: 'uptime monitor',
  summaries: {
    create: 'Create an uptime monitor; its checks are generated and queried with schedule_id.',
    update: 'Change an uptime monitor: name, url, intervalSeconds or websiteId.',
    delete: 'Delete an uptime monitor; status pages stop showing it.',
  },
  create: (ctx, body, caller) =>
    stampItem(ctx, 'mon', caller.organizationId, body.websiteId ?? null, {
      name: body.name,
      url: body.url,
      intervalSeconds: body.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS,
      paused: false,
    }),
  update(ctx, body, item) {
    const next: UptimeMonitor = {
      ...item,
      name: body.name ?? item.name,
      url: body.url ?? item.url,
      intervalSeconds: body.intervalSeconds ?? item.intervalSeconds,
      websiteId: body.websiteId === undefined ? item.websiteId : body.websiteId,
      updatedAt: ctx.now,
    };
    if (next.intervalSeconds !== item.intervalSeconds) ctx.state.traffic.clear();
    // uptime rows read the URL, and the result cache keys on the monitor's id.
    if (next.intervalSeconds !== item.intervalSeconds || next.url !== item.url || next.name !== item.name) ctx.state.results.clear();
    return next;
  },
  remove: (state, item, now) => deleteMonitor(state, item.id, now),
  actions: [pauseAction(true), pauseAction(false)],
});
