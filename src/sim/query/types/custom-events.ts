import type { SessionBatch } from '../../model/traffic.js';
import { createDistinct, percentage } from '../aggregate.js';
import { bucketLabels, createBucketer, formatDateTime } from '../dates.js';
import { type QueryTypeDefinition, type RunContext } from '../definition.js';
import { defineWebsiteType } from '../legacy-type.js';
import { scanSessions } from '../scan.js';
import { scanTracked } from '../tracked-events.js';

const EVENT_FILTERS = ['event_name', 'profile_id', 'anonymous_id', 'session_id'];

/**
 * Visits each custom event of the filtered sessions that passes the `event_name` filter and
 * lies inside the range. A path filter selects the sessions that viewed a matching page.
 */
function scanEvents(
  ctx: RunContext,
  visit: (batch: SessionBatch, session: number, event: number, visitorKey: number, serial: number) => void,
): void {
  const nameMask = ctx.filters.masks.get('event_name') ?? null;
  let serial = 0;
  scanSessions(ctx, (batch, i, _matched, visitorKey) => {
    serial++;
    const end = batch.eventOffsets[i + 1] as number;
    for (let e = batch.eventOffsets[i] as number; e < end; e++) {
      if (nameMask && nameMask[batch.eventNames[e] as number] === 0) continue;
      const t = batch.eventTimeMs[e] as number;
      if (t < ctx.fromMs || t > ctx.toMs) continue;
      visit(batch, i, e, visitorKey, serial);
    }
  });
}

/** True the first time `key` is added. */
function firstTime(seen: Set<string>, key: string): boolean {
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

interface EventStats {
  total: number;
  users: number;
  sessions: number;
  first: number;
  last: number;
}

export const customEventTypes: QueryTypeDefinition[] = [
  defineWebsiteType({
    name: 'custom_events',
    commonFilters: true,
    extraFilters: EVENT_FILTERS,
    meta: {
      title: 'Custom Events',
      description: 'Custom events by name with totals, distinct users and sessions, and first and last occurrence.',
      category: 'Events',
      outputFields: ['name', 'total_events', 'unique_users', 'unique_sessions', 'first_occurrence', 'last_occurrence', 'percentage'],
      defaultVisualization: 'table',
    },
    readsTrackedEvents: true,
    sql: {
      table: 'analytics.custom_events',
      select: ['event_name AS name', 'COUNT(*) AS total_events', 'uniq(anonymous_id) AS unique_users', 'uniq(session_id) AS unique_sessions', 'min(timestamp) AS first_occurrence', 'max(timestamp) AS last_occurrence', 'ROUND(COUNT(*) / SUM(COUNT(*)) OVER () * 100, 2) AS percentage'],
      groupBy: ['event_name'],
      orderBy: 'total_events DESC',
    },
    run(ctx) {
      const byName = new Map<string, EventStats>();
      const statsOf = (name: string, t: number): EventStats => {
        let s = byName.get(name);
        if (!s) {
          s = { total: 0, users: 0, sessions: 0, first: t, last: t };
          byName.set(name, s);
        }
        if (t < s.first) s.first = t;
        if (t > s.last) s.last = t;
        return s;
      };
      const names = ctx.dictionaries.values.event_name;
      const isNewUser = createDistinct();
      const isNewSession = createDistinct();
      scanEvents(ctx, (batch, _i, e, visitorKey, serial) => {
        const code = batch.eventNames[e] as number;
        const s = statsOf(names[code] ?? '', batch.eventTimeMs[e] as number);
        s.total += batch.weight;
        if (isNewUser(code, visitorKey)) s.users += batch.weight;
        if (isNewSession(code, serial)) s.sessions += batch.weight;
      });
      // Tracked events: one each; users and sessions by anonymousId and sessionId, and an
      // event without one is its own user or session.
      const users = new Set<string>();
      const sessions = new Set<string>();
      scanTracked(ctx, (event) => {
        const s = statsOf(event.name, event.timestamp);
        s.total += 1;
        if (event.anonymousId === null || firstTime(users, `${event.name}\u0000${event.anonymousId}`)) s.users += 1;
        if (event.sessionId === null || firstTime(sessions, `${event.name}\u0000${event.sessionId}`)) s.sessions += 1;
      });
      const rows = [...byName].map(([name, s]) => ({
        name,
        total_events: s.total,
        unique_users: s.users,
        unique_sessions: s.sessions,
        first_occurrence: formatDateTime(s.first),
        last_occurrence: formatDateTime(s.last),
      }));
      rows.sort((a, b) => b.total_events - a.total_events || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const total = rows.reduce((sum, r) => sum + r.total_events, 0);
      return rows.map((r) => ({ ...r, percentage: percentage(r.total_events, total) }));
    },
  }),
  defineWebsiteType({
    name: 'custom_events_trends',
    extraFilters: EVENT_FILTERS,
    meta: {
      title: 'Custom events over time',
      description: 'Custom events and the users who sent them, per day or hour in the request time zone.',
      category: 'Events',
      outputFields: ['date', 'total_events', 'unique_users'],
      defaultVisualization: 'timeseries',
      supportsGranularity: ['hour', 'day'],
    },
    readsTrackedEvents: true,
    sql: {
      table: 'analytics.custom_events',
      select: ['toDate(toTimeZone(timestamp, {timezone:String})) AS date', 'COUNT(*) AS total_events', 'uniq(anonymous_id) AS unique_users'],
      groupBy: ['date'],
      orderBy: 'date ASC',
    },
    run(ctx) {
      const bucket = createBucketer(ctx.unit, ctx.timezone);
      const byBucket = new Map<string, { index: number; total: number; users: number }>();
      const isNewUser = createDistinct();
      scanEvents(ctx, (batch, _i, e, visitorKey) => {
        const label = bucket(batch.eventTimeMs[e] as number);
        let s = byBucket.get(label);
        if (!s) {
          s = { index: byBucket.size, total: 0, users: 0 };
          byBucket.set(label, s);
        }
        s.total += batch.weight;
        if (isNewUser(s.index, visitorKey)) s.users += batch.weight;
      });
      const users = new Set<string>();
      scanTracked(ctx, (event) => {
        const label = bucket(event.timestamp);
        let s = byBucket.get(label);
        if (!s) {
          s = { index: byBucket.size, total: 0, users: 0 };
          byBucket.set(label, s);
        }
        s.total += 1;
        if (event.anonymousId === null || firstTime(users, `${label}\u0000${event.anonymousId}`)) s.users += 1;
      });
      return bucketLabels(ctx.unit, ctx.timezone, ctx.fromMs, ctx.toMs).map((date) => {
        const s = byBucket.get(date);
        return { date, total_events: s?.total ?? 0, unique_users: s?.users ?? 0 };
      });
    },
  }),
];
