import { sessionIdOf } from '../../../model/identity.js';
import type { Row, RunContext } from '../../engine/definition.js';
import { formatDateTime } from '../../engine/dates.js';
import { formatDateTime64 } from '../../readers/date-time64.js';
import { createVisitorCounter, scanRecentEvents, scanRecentTrackedEvents, type RecentEvent } from './realtime-window.js';
import { referrerDomain } from '../../readers/referrer-domain.js';

/** Rows of the live realtime builders, from the events of the last minutes before now. */

/** Code-unit order, independent of the host's locale. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const MINUTE_MS = 60_000;
/** The window of the realtime tables (pages, referrers, countries, cities, sessions). */
const ACTIVE_WINDOW_MS = 5 * MINUTE_MS;
/** realtime_feed reads the last 2 minutes. */
const FEED_WINDOW_MS = 2 * MINUTE_MS;
/** realtime_velocity reads the last 60 minutes. */
const VELOCITY_WINDOW_MS = 60 * MINUTE_MS;

/** Groups the window's pageviews by `keyOf` (null skips) and counts visitors, ORDER BY visitors DESC then key. */
function visitorsBy(ctx: RunContext, filtered: boolean, keyOf: (event: RecentEvent) => string | null): { key: string; pageviews: number; visitors: number }[] {
  const counter = createVisitorCounter<string>();
  const pageviews = new Map<string, number>();
  scanRecentEvents(ctx, { windowMs: ACTIVE_WINDOW_MS, filtered, customEvents: false }, (event) => {
    const key = keyOf(event);
    if (key === null) return;
    counter.add(key, event);
    pageviews.set(key, (pageviews.get(key) ?? 0) + event.batch.weight);
  });
  return counter
    .keys()
    .map((key) => ({ key, pageviews: pageviews.get(key) ?? 0, visitors: counter.visitors(key) }))
    .sort((a, b) => b.visitors - a.visitors || compareText(a.key, b.key));
}

/** realtime_pages: pageviews and visitors per path in the last 5 minutes. */
export function realtimePagesRows(ctx: RunContext): Row[] {
  const paths = ctx.dictionaries.values.path;
  return visitorsBy(ctx, true, (e) => paths[e.path] || null).map((g) => ({ path: g.key, pageviews: g.pageviews, visitors: g.visitors }));
}

/** realtime_referrers: visitors per referrer domain ('Direct' when none) in the last 5 minutes; filters ignored, LIMIT ctx.limit ?? 10. */
export function realtimeReferrerRows(ctx: RunContext): Row[] {
  const referrers = ctx.dictionaries.values.referrer;
  const rows = visitorsBy(ctx, false, (e) => referrerDomain(referrers[e.batch.dims.referrer[e.index] as number] ?? '') || 'Direct');
  return rows.slice(0, ctx.limit ?? 10).map((g) => ({ referrer: g.key, visitors: g.visitors }));
}

/** realtime_countries: visitors per country code in the last 5 minutes (empty countries left out). */
export function realtimeCountryRows(ctx: RunContext): Row[] {
  const countries = ctx.dictionaries.values.country;
  return visitorsBy(ctx, true, (e) => countries[e.batch.dims.country[e.index] as number] || null).map((g) => ({ name: g.key, visitors: g.visitors }));
}

/** realtime_cities: visitors per (city, country) in the last 5 minutes (empty cities left out). */
export function realtimeCityRows(ctx: RunContext): Row[] {
  const { city, country } = ctx.dictionaries.values;
  return visitorsBy(ctx, true, (e) => {
    const name = city[e.batch.dims.city[e.index] as number];
    return name ? `${name}\u0000${country[e.batch.dims.country[e.index] as number] ?? ''}` : null;
  }).map((g) => {
    const [name, code] = g.key.split('\u0000');
    return { city: name ?? '', country: code ?? '', visitors: g.visitors };
  });
}

/** realtime_feed: every event of the last 2 minutes (tracked events too), newest first (one row per event sample). */
export function realtimeFeedRows(ctx: RunContext): Row[] {
  const { path, country, browser_name: browser } = ctx.dictionaries.values;
  const rows: { timeMs: number; row: Row }[] = [];
  scanRecentEvents(ctx, { windowMs: FEED_WINDOW_MS, filtered: true, customEvents: true }, (e) =>
    rows.push({
      timeMs: e.timeMs,
      row: {
        event_name: e.eventName,
        path: path[e.path] ?? '',
        country: country[e.batch.dims.country[e.index] as number] ?? '',
        browser_name: browser[e.batch.dims.browser_name[e.index] as number] ?? '',
        timestamp: formatDateTime64(e.timeMs),
      },
    }),
  );
  scanRecentTrackedEvents(ctx, { windowMs: FEED_WINDOW_MS, filtered: true }, (e) =>
    rows.push({ timeMs: e.timestamp, row: { event_name: e.name, path: e.path ?? '', country: '', browser_name: '', timestamp: formatDateTime64(e.timestamp) } }),
  );
  // A stable sort: equal times keep scan order (website, session, event).
  return rows.sort((a, b) => b.timeMs - a.timeMs).map((r) => r.row);
}

/** realtime_sessions: sessions with events in the last 5 minutes, latest first, a literal LIMIT 20; filters ignored. */
export function realtimeSessionRows(ctx: RunContext): Row[] {
  const { path, country, device_type: device } = ctx.dictionaries.values;
  const sessions = new Map<string, { event: RecentEvent; lastMs: number; lastPath: number; pages: number }>();
  scanRecentEvents(ctx, { windowMs: ACTIVE_WINDOW_MS, filtered: false, customEvents: true }, (e) => {
    const id = sessionIdOf(e.batch, e.index);
    let s = sessions.get(id);
    if (!s) sessions.set(id, (s = { event: e, lastMs: e.timeMs, lastPath: e.path, pages: 0 }));
    if (e.timeMs >= s.lastMs) {
      s.lastMs = e.timeMs;
      s.lastPath = e.path;
    }
    if (e.pageview) s.pages++;
  });
  return [...sessions.entries()]
    .sort(([idA, a], [idB, b]) => b.lastMs - a.lastMs || compareText(idA, idB))
    .slice(0, 20)
    .map(([id, s]) => ({
      session_id: id,
      current_page: path[s.lastPath] ?? '',
      country: country[s.event.batch.dims.country[s.event.index] as number] ?? '',
      device_type: device[s.event.batch.dims.device_type[s.event.index] as number] ?? '',
      pages_viewed: s.pages,
      last_seen: formatDateTime64(s.lastMs),
    }));
}

/** realtime_velocity: pageviews, custom events (tracked ones too) and visitors per minute of the last 60 minutes that has events, oldest first. */
export function realtimeVelocityRows(ctx: RunContext): Row[] {
  const counter = createVisitorCounter<number>();
  const pageviews = new Map<number, number>();
  const events = new Map<number, number>();
  const trackedVisitors = new Map<number, Set<string>>();
  const minuteOf = (ms: number): number => Math.floor(ms / MINUTE_MS) * MINUTE_MS;
  scanRecentEvents(ctx, { windowMs: VELOCITY_WINDOW_MS, filtered: false, customEvents: true }, (e) => {
    const minute = minuteOf(e.timeMs);
    counter.add(minute, e);
    const into = e.pageview ? pageviews : events;
    into.set(minute, (into.get(minute) ?? 0) + e.batch.weight);
  });
  scanRecentTrackedEvents(ctx, { windowMs: VELOCITY_WINDOW_MS, filtered: false }, (e) => {
    const minute = minuteOf(e.timestamp);
    events.set(minute, (events.get(minute) ?? 0) + 1);
    let ids = trackedVisitors.get(minute);
    if (!ids) trackedVisitors.set(minute, (ids = new Set()));
    ids.add(e.anonymousId ?? '');
  });
  const minutes = [...new Set([...counter.keys(), ...trackedVisitors.keys()])].sort((a, b) => a - b);
  return minutes.map((minute) => ({
    minute: formatDateTime(minute),
    pageviews: pageviews.get(minute) ?? 0,
    events: events.get(minute) ?? 0,
    visitors: counter.visitors(minute) + (trackedVisitors.get(minute)?.size ?? 0),
  }));
}
