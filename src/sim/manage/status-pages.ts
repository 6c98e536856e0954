import type { IncidentBody, IncidentStatus, PublicStatusPage, StatusPageBody } from '../../contract/manage/status-pages.js';
import type { UptimeMonitor } from '../model/entities.js';
import { DAY_MS } from '../model/world.js';
import type { SimState } from '../state.js';
import type { TrafficReader } from '../traffic-cache.js';
import { iso } from './kit.js';
import type { Incident, IncidentUpdate, StatusPage } from './model.js';
import type { IdSource } from './store.js';

/** How long a resolved incident stays on the public page. */
export const RECENT_INCIDENT_MS = 14 * DAY_MS;

/** A status page as the management routes return it. */
export function statusPageWire(page: StatusPage): StatusPageBody {
  return {
    id: page.id,
    organizationId: page.organizationId,
    websiteId: page.websiteId,
    name: page.name,
    slug: page.slug,
    description: page.description,
    published: page.published,
    monitorIds: [...page.monitorIds],
    createdAt: iso(page.createdAt),
    updatedAt: iso(page.updatedAt),
  };
}

/** An incident as the management routes return it. */
export function incidentWire(incident: Incident): IncidentBody {
  return {
    id: incident.id,
    organizationId: incident.organizationId,
    statusPageId: incident.statusPageId,
    title: incident.title,
    status: incident.status,
    impact: incident.impact,
    updates: incident.updates.map((u) => ({ id: u.id, status: u.status, message: u.message, createdAt: iso(u.createdAt) })),
    resolvedAt: incident.resolvedAt === null ? null : iso(incident.resolvedAt),
    createdAt: iso(incident.createdAt),
    updatedAt: iso(incident.updatedAt),
  };
}

/** The page with `slug`, if any (slugs are unique). */
export function pageBySlug(state: SimState, slug: string): StatusPage | undefined {
  for (const page of state.manage.statusPages.values()) if (page.slug === slug) return page;
  return undefined;
}

/** Removes a status page and its incidents. */
export function deleteStatusPage(state: SimState, pageId: string): void {
  state.manage.statusPages.delete(pageId);
  for (const incident of [...state.manage.incidents.values()]) {
    if (incident.statusPageId === pageId) state.manage.incidents.delete(incident.id);
  }
}

/**
 * Adds an entry to an incident's timeline: the status changes to `status` (when given) and the
 * message defaults to a sentence naming it. Resolving stamps `resolvedAt`; reopening clears it.
 */
export function withUpdate(
  incident: Incident,
  change: { status?: IncidentStatus | undefined; message?: string | undefined },
  now: number,
  ids: IdSource,
): Incident {
  const status = change.status ?? incident.status;
  const update: IncidentUpdate = {
    id: ids.next('upd'),
    status,
    message: change.message ?? `Status changed to ${status}.`,
    createdAt: now,
  };
  const resolvedAt = status !== 'resolved' ? null : incident.status === 'resolved' ? incident.resolvedAt : now;
  return { ...incident, status, resolvedAt, updates: [...incident.updates, update], updatedAt: now };
}

type PublicMonitor = PublicStatusPage['monitors'][number];

/**
 * What a visitor sees of a monitor at `now`: its latest check and the share of successful
 * checks over the last 24 hours, counting only checks since the monitor was created.
 */
export function monitorState(traffic: TrafficReader, monitor: UptimeMonitor, now: number): PublicMonitor {
  const from = Math.max(now - DAY_MS, monitor.createdAt);
  let up = 0;
  let counted = 0;
  let last: { at: number; status: number; ms: number } | null = null;
  for (let day = Math.floor(from / DAY_MS); day <= Math.floor(now / DAY_MS); day++) {
    const batch = traffic.checks(monitor, day);
    for (let i = 0; i < batch.count; i++) {
      const at = batch.timeMs[i] as number;
      if (at < from || at > now) continue;
      const status = batch.status[i] as number;
      if (status !== 2) {
        counted++;
        if (status === 1) up++;
      }
      last = { at, status, ms: batch.totalMs[i] as number };
    }
  }
  const current = last === null ? 'unknown' : last.status === 1 ? 'up' : last.status === 0 ? 'down' : 'pending';
  return {
    id: monitor.id,
    name: monitor.name,
    status: monitor.paused ? 'paused' : current,
    lastCheckedAt: last === null ? null : iso(last.at),
    responseTimeMs: last === null ? null : Math.round(last.ms),
    uptime24h: counted === 0 ? null : Math.round((up / counted) * 10_000) / 100,
  };
}

function publicIncident(incident: Incident) {
  const { organizationId: _org, statusPageId: _page, ...rest } = incidentWire(incident);
  return rest;
}

const newestFirst = (a: Incident, b: Incident): number => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1);

/**
 * The public view of a published page: its monitors' current state, its open incidents and
 * those resolved in the last 14 days (newest first), and an overall status: `major_outage` for
 * a critical incident or every shown monitor down, `partial_outage` for a major incident or
 * some monitor down, `degraded` for a minor incident, else `operational`.
 */
export function publicStatusPage(state: SimState, page: StatusPage, now: number): PublicStatusPage {
  const monitors = page.monitorIds
    .map((id) => state.monitors.get(id))
    .filter((m): m is UptimeMonitor => m !== undefined)
    .map((m) => monitorState(state.traffic, m, now));
  const incidents = [...state.manage.incidents.values()].filter((i) => i.statusPageId === page.id && i.createdAt <= now);
  const active = incidents.filter((i) => i.status !== 'resolved').sort(newestFirst);
  const recent = incidents
    .filter((i) => i.status === 'resolved' && i.resolvedAt !== null && i.resolvedAt >= now - RECENT_INCIDENT_MS)
    .sort(newestFirst);
  const running = monitors.filter((m) => m.status !== 'paused');
  const down = running.filter((m) => m.status === 'down').length;
  const impacts = new Set(active.map((i) => i.impact));
  const status =
    impacts.has('critical') || (down > 0 && down === running.length)
      ? 'major_outage'
      : impacts.has('major') || down > 0
        ? 'partial_outage'
        : impacts.has('minor')
          ? 'degraded'
          : 'operational';
  const updatedAt = Math.max(page.updatedAt, ...incidents.map((i) => i.updatedAt));
  return {
    name: page.name,
    slug: page.slug,
    description: page.description,
    status,
    monitors,
    activeIncidents: active.map(publicIncident),
    recentIncidents: recent.map(publicIncident),
    updatedAt: iso(updatedAt),
  };
}
