import type { SessionBatch } from '../../../model/traffic.js';
import { DAY_MS } from '../../../model/world.js';
import { ingestedSessions } from '../../readers/ingested-sessions.js';
import { pageStayMs } from '../../../model/derived/pageview-times.js';
import type { TrackedEvent } from '../../../ingest/event-store.js';
import type { RunContext } from '../../engine/definition.js';
import { passesFilters } from '../../engine/filters.js';

/**
 * What the realtime types read: the events of the last minutes before the clock's now, as the
 * session samples place them (each pageview is a `screen_view` at its start, each custom event
 * at its time). Nothing after now is ever visited.
 */

/** Visitor ids of one website fit below this (as in scan.ts); keys of other websites are offset by it. */
const VISITOR_SPACE = 4_194_304;

/** How far back a session may start and still have events in a window ending now. */
const LONGEST_SESSION_MS = 6 * 3_600_000;

/** One event in the window. */
export interface RecentEvent {
  readonly batch: SessionBatch;
  /** Session sample index. */
  readonly index: number;
  /** 'screen_view' for a pageview, else the custom event's name. */
  readonly eventName: string;
  /** True for a pageview (`screen_view`). */
  readonly pageview: boolean;
  /** Path code of the pageview, or of the page a custom event happened on. */
  readonly path: number;
  readonly timeMs: number;
  /** The visitor across the scope (for distinct counts). */
  readonly visitorKey: number;
}

/** Options of {@link scanRecentEvents}. */
export interface RecentScanOptions {
  /** Window length before now, in ms. */
  readonly windowMs: number;
  /** Apply the request's global filters (session dimensions and the event's path). */
  readonly filtered: boolean;
  /** Visit custom events too, not only pageviews. */
  readonly customEvents: boolean;
}

function passesMasks(ctx: RunContext, batch: SessionBatch, index: number): boolean {
  for (const [field, mask] of ctx.filters.masks) {
    if (field === 'path') continue;
    const column = (batch.dims as Record<string, Uint16Array | undefined>)[field];
    if (column && mask[column[index] as number] === 0) return false;
  }
  return true;
}

/**
 * Visits every event of the scope's websites with `now - windowMs <= time <= now`, website by
 * website, then by session and time, so results are deterministic. The page views of ingested
 * sessions come after each day's generated ones.
 */
export function scanRecentEvents(ctx: RunContext, options: RecentScanOptions, visit: (event: RecentEvent) => void): void {
  if (ctx.scope.kind !== 'websites') return;
  if (options.filtered && ctx.filters.excludesAll) return;
  const toMs = ctx.now;
  const fromMs = toMs - options.windowMs;
  const pathMask = options.filtered ? (ctx.filters.masks.get('path') ?? null) : null;
  const eventNames = ctx.dictionaries.values.event_name;
  const firstDay = Math.floor((fromMs - LONGEST_SESSION_MS) / DAY_MS);
  const lastDay = Math.floor(toMs / DAY_MS);
  ctx.scope.websites.forEach((website, siteIndex) => {
    for (let day = firstDay; day <= lastDay; day++) {
      const ingested = ingestedSessions(ctx.ingested, website, day);
      for (const batch of ingested ? [ctx.traffic.sessions(website, day), ingested] : [ctx.traffic.sessions(website, day)]) {
        for (let i = 0; i < batch.count; i++) {
          const startMs = batch.startMs[i] as number;
          if (startMs > toMs) break;
          if (startMs < fromMs - LONGEST_SESSION_MS) continue;
          if (options.filtered && !passesMasks(ctx, batch, i)) continue;
          const visitorKey = siteIndex * VISITOR_SPACE + (batch.visitor[i] as number);
          const firstPage = batch.pageOffsets[i] as number;
          const endPage = batch.pageOffsets[i + 1] as number;
          const starts: number[] = [];
          let at = startMs;
          for (let p = firstPage; p < endPage; p++) {
            starts.push(at);
            const path = batch.pagePaths[p] as number;
            if (at >= fromMs && at <= toMs && (!pathMask || pathMask[path] === 1)) {
              visit({ batch, index: i, eventName: 'screen_view', pageview: true, path, timeMs: at, visitorKey });
            }
            at += pageStayMs(batch, p);
          }
          if (!options.customEvents) continue;
          for (let e = batch.eventOffsets[i] as number; e < (batch.eventOffsets[i + 1] as number); e++) {
            const t = batch.eventTimeMs[e] as number;
            if (t < fromMs || t > toMs) continue;
            let page = 0;
            while (page + 1 < starts.length && (starts[page + 1] as number) <= t) page++;
            const path = batch.pagePaths[firstPage + page] as number;
            if (pathMask && pathMask[path] === 0) continue;
            visit({ batch, index: i, eventName: eventNames[batch.eventNames[e] as number] ?? '', pageview: false, path, timeMs: t, visitorKey });
          }
        }
      }
    }
  });
}

/** Counts distinct visitors per group key, weighted: each sample visitor stands for `weight` visitors. */
export function createVisitorCounter<K>(): { add(key: K, event: RecentEvent): void; visitors(key: K): number; keys(): K[] } {
  const seen = new Map<K, Set<number>>();
  const counts = new Map<K, number>();
  return {
    add(key, event) {
      let set = seen.get(key);
      if (!set) seen.set(key, (set = new Set()));
      if (!counts.has(key)) counts.set(key, 0);
      if (set.has(event.visitorKey)) return;
      set.add(event.visitorKey);
      counts.set(key, (counts.get(key) ?? 0) + event.batch.weight);
    },
    visitors: (key) => counts.get(key) ?? 0,
    keys: () => [...counts.keys()],
  };
}

/**
 * Visits the custom events accepted by `POST /track` for the scope's websites with
 * `now - windowMs <= time <= now` (with `filtered`, those passing the request's filters: a tracked
 * event has a path and no session dimensions).
 */
export function scanRecentTrackedEvents(ctx: RunContext, options: Omit<RecentScanOptions, 'customEvents'>, visit: (event: TrackedEvent) => void): void {
  if (ctx.scope.kind !== 'websites') return;
  if (options.filtered && ctx.filters.excludesAll) return;
  for (const website of ctx.scope.websites) {
    ctx.events.scan(website.id, ctx.now - options.windowMs, ctx.now, (event) => {
      if (options.filtered && !passesFilters(ctx.filters, (field) => (field === 'path' ? (event.path ?? '') : ''))) return;
      visit(event);
    });
  }
}
