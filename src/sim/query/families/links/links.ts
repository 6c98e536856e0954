import type { Website } from '../../../model/entities.js';
import { OUTBOUND_LINKS, outboundClicks, type OutboundClicks } from '../../../model/derived/outbound-clicks.js';
import type { SessionBatch } from '../../../model/traffic.js';
import { createDistinct, percentage } from '../../readers/aggregate.js';
import { formatDateTime } from '../../engine/dates.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { declareUnder, type QueryTypeDefinition, type Row, type RunContext, type QueryFamilySpec } from '../../engine/definition.js';
import { createFieldReader, passesRecord, splitFilters, type SplitFilters } from '../../readers/record-filters.js';
import { OUTGOING_LINKS, type OutgoingLinkRecord } from '../../../ingest/page-events.js';
import { DAY_MS } from '../../../model/world.js';
import { scanSessionsSteps, visitorKeyOf } from '../../readers/scan.js';
import { YIELD_RECORDS, type PassSteps } from '../../engine/pass-steps.js';
import { sessionIdValue } from '../../readers/session-identity.js';
import catalogue from './links-catalogue.json' with { type: 'json' };

/**
 * The links family: its types read analytics.outgoing_links, deriving outboundClicks on each day
 * of their range; their fields and meta are in links-catalogue.json.
 */
const FAMILY: QueryFamilySpec = { name: 'links', table: 'analytics.outgoing_links', derives: [outboundClicks], catalogue: readCatalogue('links', catalogue) };

/** Filter fields of an outbound click that no session dictionary holds. */
const CLICK_FIELDS = new Set(['client_id', 'anonymous_id', 'session_id', 'href', 'text']);

const EMPTY_CLICKS: OutboundClicks = {
  count: 0,
  session: new Uint32Array(0),
  page: new Uint32Array(0),
  timeMs: new Float64Array(0),
  link: new Uint8Array(0),
};

/** One outbound click: its link, time, and the visitor and session (scan serial) that made it. */
interface OutboundClick {
  readonly href: string;
  readonly text: string;
  readonly timeMs: number;
  readonly visitorKey: number;
  readonly sessionKey: number;
  readonly weight: number;
}

/**
 * Visits the outbound clicks in range of the filtered sessions. As the service joins each click
 * to its session's first-seen dimensions, session filters apply to the session and a path filter
 * to the session's entry page; `client_id`, ids, `href` and `text` filters apply to the click.
 * In pieces: yields the session samples read, and what a day's clicks cost when derived again
 * ({@link scanSessionsSteps} counts it; {@link PassSteps}).
 */
function* scanOutboundClicks(ctx: RunContext, visit: (click: OutboundClick) => void): PassSteps<void> {
  if (ctx.scope.kind !== 'websites') return;
  const split = splitFilters(ctx, CLICK_FIELDS);
  const pathMask = ctx.filters.masks.get('path') ?? null;
  const websites = new Map<string, Website>(ctx.scope.websites.map((w) => [w.id, w]));
  let serial = 0;
  let batchOf: SessionBatch | null = null;
  let clicks: OutboundClicks = EMPTY_CLICKS;
  let next = 0;
  yield* scanSessionsSteps(split.sessions, (batch, i, _matched, visitorKey) => {
    serial++;
    if (batch !== batchOf) {
      batchOf = batch;
      clicks = ctx.traffic.derived(outboundClicks, websites.get(batch.websiteId) as Website, batch.day);
      next = 0;
    }
    // Clicks are in session order and sessions are visited in order: walk them alongside.
    while (next < clicks.count && (clicks.session[next] as number) < i) next++;
    if (next >= clicks.count || clicks.session[next] !== i) return;
    if (pathMask && pathMask[batch.pagePaths[batch.pageOffsets[i] as number] as number] === 0) return;
    for (let c = next; c < clicks.count && clicks.session[c] === i; c++) {
      const timeMs = clicks.timeMs[c] as number;
      if (timeMs < ctx.fromMs || timeMs > ctx.toMs) continue;
      const link = OUTBOUND_LINKS[clicks.link[c] as number];
      if (!link) continue;
      const passes = passesRecord(split, (field) => {
        switch (field) {
          case 'client_id':
            return batch.websiteId;
          case 'href':
            return link.href;
          case 'text':
            return link.text;
          default:
            return sessionIdValue(ctx, batch, i, field) ?? '';
        }
      });
      if (passes) visit({ href: link.href, text: link.text, timeMs, visitorKey, sessionKey: serial, weight: batch.weight });
    }
  });
  yield* scanIngestedClicks(ctx, split, serial, visit);
}

/** A stored click's own filter fields (its website's id, `client_id`, is not on the record). */
const storedClickField = createFieldReader<OutgoingLinkRecord>({
  anonymous_id: (click) => click.anonymousId,
  session_id: (click) => click.sessionId,
  href: (click) => click.href,
  text: (click) => click.text,
});

/**
 * Visits the clicks `/batch` and `/` stored (weight 1), website by website and day by day in
 * arrival order, after the generated ones. A click is joined to no session here, so a request
 * with a session-level filter (a dimension or a path) leaves them out; the click filters apply.
 * In pieces: yields the clicks read ({@link PassSteps}).
 */
function* scanIngestedClicks(ctx: RunContext, split: SplitFilters, serialBase: number, visit: (click: OutboundClick) => void): PassSteps<void> {
  if (ctx.scope.kind !== 'websites' || split.sessions.filters.excludesAll || ctx.filters.masks.size > 0) return;
  const firstDay = Math.floor(ctx.fromMs / DAY_MS);
  const lastDay = Math.floor(ctx.toMs / DAY_MS);
  const sessions = new Map<string, number>();
  let unreported = 0;
  for (const [siteIndex, website] of ctx.scope.websites.entries()) {
    if (!ctx.ingested.holds(OUTGOING_LINKS, website.id)) continue;
    for (let day = firstDay; day <= lastDay; day++) {
      for (const click of ctx.ingested.onDay(OUTGOING_LINKS, website.id, day)) {
        unreported++;
        if (click.timestamp < ctx.fromMs || click.timestamp > ctx.toMs) continue;
        if (!passesRecord(split, (field) => (field === 'client_id' ? website.id : storedClickField(click, field)))) continue;
        const sessionName = `${website.id}\u0000${click.sessionId !== '' ? click.sessionId : click.eventId}`;
        let sessionKey = sessions.get(sessionName);
        if (sessionKey === undefined) sessions.set(sessionName, (sessionKey = serialBase + 1 + sessions.size));
        visit({ href: click.href, text: click.text, timeMs: click.timestamp, visitorKey: visitorKeyOf(siteIndex, click.visitor), sessionKey, weight: 1 });
      }
      if (unreported >= YIELD_RECORDS) {
        yield unreported;
        unreported = 0;
      }
    }
  }
  if (unreported > 0) yield unreported;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Clicks per (href, text), most first, with distinct visitors and sessions and the latest click. */
function* outboundLinkRows(ctx: RunContext): PassSteps<Row[]> {
  const groups = new Map<string, { href: string; text: string; index: number; clicks: number; users: number; sessions: number; last: number }>();
  const isNewUser = createDistinct();
  const isNewSession = createDistinct();
  yield* scanOutboundClicks(ctx, (click) => {
    const key = `${click.href}\u0000${click.text}`;
    let g = groups.get(key);
    if (!g) {
      g = { href: click.href, text: click.text, index: groups.size, clicks: 0, users: 0, sessions: 0, last: click.timeMs };
      groups.set(key, g);
    }
    g.clicks += click.weight;
    if (click.timeMs > g.last) g.last = click.timeMs;
    if (isNewUser(g.index, click.visitorKey)) g.users += click.weight;
    if (isNewSession(g.index, click.sessionKey)) g.sessions += click.weight;
  });
  const total = [...groups.values()].reduce((sum, g) => sum + g.clicks, 0);
  return [...groups.values()]
    .sort((a, b) => b.clicks - a.clicks || compareText(a.href, b.href) || compareText(a.text, b.text))
    .map((g) => ({
      href: g.href,
      text: g.text,
      total_clicks: g.clicks,
      unique_users: g.users,
      unique_sessions: g.sessions,
      percentage: percentage(g.clicks, total),
      last_clicked: formatDateTime(g.last),
    }));
}

/** The host of an href, as ClickHouse's `domain()` reads it (`www.` kept). */
function domainOf(href: string): string {
  return /^[a-z]+:\/\/([^/?#:]+)/i.exec(href)?.[1] ?? '';
}

/** Clicks per destination domain, most first, with distinct visitors and hrefs. */
function* outboundDomainRows(ctx: RunContext): PassSteps<Row[]> {
  const groups = new Map<string, { index: number; clicks: number; users: number; links: Set<string> }>();
  const isNewUser = createDistinct();
  yield* scanOutboundClicks(ctx, (click) => {
    const domain = domainOf(click.href);
    let g = groups.get(domain);
    if (!g) {
      g = { index: groups.size, clicks: 0, users: 0, links: new Set() };
      groups.set(domain, g);
    }
    g.clicks += click.weight;
    if (isNewUser(g.index, click.visitorKey)) g.users += click.weight;
    g.links.add(click.href);
  });
  const total = [...groups.values()].reduce((sum, g) => sum + g.clicks, 0);
  return [...groups]
    .sort(([a, x], [b, y]) => y.clicks - x.clicks || compareText(a, b))
    .map(([domain, g]) => ({
      domain,
      total_clicks: g.clicks,
      unique_users: g.users,
      unique_links: g.links.size,
      percentage: percentage(g.clicks, total),
    }));
}

/** What every links declaration below shares. */
const defineLinksType = declareUnder({
  family: FAMILY,
  publicAccess: true,
  filters: ["client_id", "anonymous_id", "session_id", "href", "text"],
  customizable: true,
});

/** The live links builders. */
export const linksTypes: QueryTypeDefinition[] = [
  defineLinksType({
    name: 'outbound_links',
    steps: outboundLinkRows,
  }),
  defineLinksType({
    name: 'outbound_domains',
    steps: outboundDomainRows,
  }),
];
