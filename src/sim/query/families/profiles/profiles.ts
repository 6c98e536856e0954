import type { Website } from '../../../model/entities.js';
import { deviceDetailsOf } from '../../../model/derived/device-details.js';
import { errorDerivation, errorFilename, errorKindsOf, errorsOfSession } from '../../../model/derived/errors.js';
import { OUTBOUND_LINKS, outboundClicks } from '../../../model/derived/outbound-clicks.js';
import {
  REVENUE_CURRENCIES,
  REVENUE_PROVIDERS,
  REVENUE_TYPES,
  UNMATCHED,
  productsOf,
  revenueDerivation,
  statusOf,
  type RevenueBatch,
  transactionIdOf,
  transactionsOfSession,
} from '../../../model/derived/revenue.js';
import { vitalsDerivation, vitalsOfSession } from '../../../model/derived/vitals.js';
import { hashString, mix } from '../../../model/hash.js';
import { sessionIdOf } from '../../../model/identity.js';
import type { SessionBatch } from '../../../model/traffic.js';
import { formatDateTime } from '../../engine/dates.js';
import { GENERATED_RECORD_WORK, YIELD_RECORDS, type PassSteps } from '../../engine/pass-steps.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { declareUnder, type QueryFamilySpec, type QueryTypeDefinition, type Row, type RunContext } from '../../engine/definition.js';
import { passesFilters, type FieldTest } from '../../engine/filters.js';
import { sessionEventsOf } from '../../readers/session-events.js';
import {
  formatDuration,
  identifiedProfileIdOf,
  NO_FILTERS,
  requestedVisitorId,
  scanIdentifiedSessionsSteps,
  scanVisitorSessionsSteps,
  sessionEndOf,
  visitorIdOf,
} from '../../readers/session-identity.js';
import type { TrackedEvent } from '../../../ingest/event-store.js';
import { scanOwnerSteps } from '../../readers/tracked-events.js';
import { userAgentOf } from './user-agent.js';
import catalogue from './profiles-catalogue.json' with { type: 'json' };

/** profile_list filters tested on the rolled-up visitor rather than on sessions. */
const VISITOR_FIELDS: ReadonlySet<string> = new Set(['session_count', 'total_events', 'unique_pages', 'event_name']);
const COUNT_FIELDS = ['session_count', 'total_events', 'unique_pages'] as const;

/** What profile_sessions yields per row it builds, besides what it derives, in session samples read ({@link PassSteps}). */
const SESSION_ROW_WORK = 64;

/** What profile_list yields per row it builds, in session samples read ({@link PassSteps}): a row costs about what reading 48 samples does. */
const ROW_WORK = 48;

/** Longest session duration profile_sessions reports, in seconds (8 hours). */
const MAX_SESSION_SECONDS = 28_800;

function websiteOf(ctx: RunContext, batch: SessionBatch): Website {
  if (ctx.scope.kind !== 'websites') throw new Error('profiles need a website');
  return ctx.scope.websites.find((w) => w.id === batch.websiteId) ?? (ctx.scope.websites[0] as Website);
}

function dimension(ctx: RunContext, batch: SessionBatch, i: number, field: 'country' | 'region' | 'device_type' | 'browser_name' | 'os_name' | 'referrer'): string {
  return ctx.dictionaries.values[field][batch.dims[field][i] as number] ?? '';
}

/** Revenue transactions of one session sample that are attributed to its visitor (not unmatched). */
function* transactionsOf(ctx: RunContext, batch: SessionBatch, i: number, revenue = ctx.traffic.derived(revenueDerivation, websiteOf(ctx, batch), batch.day)) {
  const { from, to } = transactionsOfSession(revenue, i);
  for (let j = from; j < to; j++) if (revenue.attribution[j] !== UNMATCHED) yield { revenue, j };
}

/** One visitor of profile_list, rolled up over its sessions in range. */
interface VisitorRollup {
  /** The visitor's anonymous ids: one, or several linked to one profile by `POST /identify`. */
  readonly anonymousIds: string[];
  readonly profileId: string;
  readonly batch: SessionBatch;
  readonly index: number;
  firstMs: number;
  lastMs: number;
  sessions: number;
  events: number;
  readonly pages: Set<number>;
  readonly customNames: Set<string>;
  customEvents: number;
  ltv: number;
}

/** The id profile_list lists a visitor under: its profile id, else its anonymous id. */
const visitorKeyOf = (v: Pick<VisitorRollup, 'profileId' | 'anonymousIds'>): string => v.profileId || (v.anonymousIds[0] as string);

/** Adds a rollup of the same profile (another of its devices) to the first one. */
function mergeRollup(into: VisitorRollup, other: VisitorRollup): void {
  into.anonymousIds.push(...other.anonymousIds);
  into.firstMs = Math.min(into.firstMs, other.firstMs);
  into.lastMs = Math.max(into.lastMs, other.lastMs);
  into.sessions += other.sessions;
  into.events += other.events;
  for (const page of other.pages) into.pages.add(page);
  for (const name of other.customNames) into.customNames.add(name);
  into.customEvents += other.customEvents;
  into.ltv += other.ltv;
}

/**
 * The visitor a tracked event belongs to: its profile id, else the visitor its anonymous id is
 * (a listed visitor's, or one linked to a profile by `POST /identify`), else its anonymous id.
 */
function trackedVisitorOf(ctx: RunContext, event: TrackedEvent, byAnonymous: ReadonlyMap<string, string>): string | null {
  if (event.profileId) return event.profileId;
  if (!event.anonymousId) return null;
  return byAnonymous.get(event.anonymousId) ?? (event.websiteId !== null ? ctx.profiles.profileOfAlias(event.websiteId, event.anonymousId) : undefined) ?? event.anonymousId;
}

/** Tracked (POST /track, /events) events of the scope in range, their names by the visitor they belong to, in pieces. */
function* trackedByVisitor(ctx: RunContext, byAnonymous: ReadonlyMap<string, string>): PassSteps<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (ctx.scope.kind !== 'websites') return out;
  for (const website of ctx.scope.websites) {
    yield* scanOwnerSteps(ctx, website.id, ctx.fromMs, ctx.toMs, (event) => {
      const visitor = trackedVisitorOf(ctx, event, byAnonymous);
      if (visitor === null) return;
      const names = out.get(visitor);
      if (names) names.push(event.name);
      else out.set(visitor, [event.name]);
    });
  }
  return out;
}

function passesCount(test: FieldTest, value: number): boolean {
  const inList = test.values.some((v) => Number(v) === value);
  if (test.op === 'eq' || test.op === 'in') return inList;
  if (test.op === 'ne' || test.op === 'not_in') return !inList;
  throw new Error(`Operator '${test.op}' is not permitted for filter '${test.field}'. Allowed operators: eq, ne, in, not_in.`);
}

/**
 * Visitors with page views in range, each once: under its profile id (its own, or the one
 * `POST /identify` linked its anonymous id to; the devices of one profile make one row), else
 * its anonymous id.
 */
function* profileListRows(ctx: RunContext): PassSteps<Row[]> {
  const samples = new Map<number, VisitorRollup>();
  const eventNames = ctx.dictionaries.values.event_name;
  let lastBatch: SessionBatch | null = null;
  let revenue = null as unknown as RevenueBatch;
  yield* scanIdentifiedSessionsSteps(
    ctx,
    (batch, i, _matched, visitorKey) => {
      if (batch !== lastBatch) {
        lastBatch = batch;
        revenue = ctx.traffic.derived(revenueDerivation, websiteOf(ctx, batch), batch.day);
      }
      let v = samples.get(visitorKey);
      if (!v) {
        v = {
          anonymousIds: [visitorIdOf(batch, i)],
          profileId: identifiedProfileIdOf(ctx, batch, i),
          batch,
          index: i,
          firstMs: batch.startMs[i] as number,
          lastMs: 0,
          sessions: 0,
          events: 0,
          pages: new Set(),
          customNames: new Set(),
          customEvents: 0,
          ltv: 0,
        };
        samples.set(visitorKey, v);
      }
      const from = batch.pageOffsets[i] as number;
      const to = batch.pageOffsets[i + 1] as number;
      const eventFrom = batch.eventOffsets[i] as number;
      const eventTo = batch.eventOffsets[i + 1] as number;
      v.sessions++;
      v.events += 2 * (to - from) + (eventTo - eventFrom);
      for (let p = from; p < to; p++) v.pages.add(batch.pagePaths[p] as number);
      for (let e = eventFrom; e < eventTo; e++) v.customNames.add(eventNames[batch.eventNames[e] as number] ?? '');
      v.customEvents += eventTo - eventFrom;
      v.firstMs = Math.min(v.firstMs, batch.startMs[i] as number);
      v.lastMs = Math.max(v.lastMs, Math.min(ctx.toMs, sessionEndOf(batch, i)));
      for (const { j } of transactionsOf(ctx, batch, i, revenue)) v.ltv += revenue.amount[j] as number;
    },
    ctx.fromMs,
    ctx.toMs,
    VISITOR_FIELDS,
    identifiedProfileIdOf,
  );
  const visitors = new Map<string, VisitorRollup>();
  for (const v of samples.values()) {
    const key = visitorKeyOf(v);
    const seen = visitors.get(key);
    if (seen) mergeRollup(seen, v);
    else visitors.set(key, v);
  }
  const byAnonymous = new Map<string, string>();
  for (const [key, v] of visitors) for (const id of v.anonymousIds) byAnonymous.set(id, key);
  const tracked = yield* trackedByVisitor(ctx, byAnonymous);
  yield samples.size;
  const countTests = ctx.filters.tests.filter((t) => (COUNT_FIELDS as readonly string[]).includes(t.field));
  const nameTests = ctx.filters.tests.filter((t) => t.field === 'event_name');
  const detailsDerivation = deviceDetailsOf(ctx.dictionaries);
  const rows: Row[] = [];
  let unreported = 0;
  for (const [key, v] of visitors) {
    const own = tracked.get(key) ?? [];
    for (const name of own) v.customNames.add(name);
    const counts = { session_count: v.sessions, total_events: v.events, unique_pages: v.pages.size };
    if (!countTests.every((t) => passesCount(t, counts[t.field as (typeof COUNT_FIELDS)[number]]))) continue;
    if (nameTests.length > 0 && ![...v.customNames].some((name) => passesFilters({ ...NO_FILTERS, tests: nameTests }, () => name))) continue;
    const { batch, index } = v;
    // A day whose details are no longer kept is derived again here, counted as the cache counts it.
    const before = ctx.traffic.generatedWork();
    const details = ctx.traffic.derived(detailsDerivation, websiteOf(ctx, batch), batch.day);
    unreported += (ctx.traffic.generatedWork() - before) * GENERATED_RECORD_WORK;
    const browser = dimension(ctx, batch, index, 'browser_name');
    const os = dimension(ctx, batch, index, 'os_name');
    const device = dimension(ctx, batch, index, 'device_type');
    rows.push({
      visitor_id: key,
      profile_id: v.profileId,
      first_visit: formatDateTime(v.firstMs),
      last_visit: formatDateTime(v.lastMs),
      session_count: v.sessions,
      total_events: v.events,
      unique_pages: v.pages.size,
      user_agent: userAgentOf(browser, details.browserVersion[index] ?? '', os, details.osVersion[index] ?? '', device),
      country: dimension(ctx, batch, index, 'country'),
      region: dimension(ctx, batch, index, 'region'),
      device_type: device,
      browser_name: browser,
      os_name: os,
      referrer: dimension(ctx, batch, index, 'referrer'),
      custom_event_count: v.customEvents + own.length,
      unique_event_names: v.customNames.size,
      ltv: Math.round(v.ltv * 100) / 100,
    });
    unreported += ROW_WORK;
    if (unreported >= YIELD_RECORDS) {
      yield unreported;
      unreported = 0;
    }
  }
  return rows.sort(
    (a, b) => (b.last_visit as string).localeCompare(a.last_visit as string) || (a.visitor_id as string).localeCompare(b.visitor_id as string),
  );
}

/**
 * The requested visitor's sessions in range, oldest first: the sessions of the anonymous id, or of
 * the profile (every device `POST /identify` linked to it).
 */
function* visitorSessions(ctx: RunContext): PassSteps<{ batch: SessionBatch; index: number }[]> {
  const id = requestedVisitorId(ctx);
  const out: { batch: SessionBatch; index: number }[] = [];
  yield* scanVisitorSessionsSteps(ctx, id, (batch, index) => out.push({ batch, index }), ctx.fromMs, ctx.toMs, identifiedProfileIdOf);
  return out.sort((a, b) => (a.batch.startMs[a.index] as number) - (b.batch.startMs[b.index] as number));
}

/**
 * profile_detail of a visitor known only from tracked events (`POST /track`, `/events`): those
 * whose profile id or anonymous id is the requested id, or whose anonymous id `POST /identify`
 * linked to it. As live, a visitor without a session id in its activity has no row; without
 * page views its page and device fields are empty.
 */
function* trackedDetailRows(ctx: RunContext, id: string): PassSteps<Row[]> {
  if (ctx.scope.kind !== 'websites') return [];
  let firstMs = Number.POSITIVE_INFINITY;
  let lastMs = Number.NEGATIVE_INFINITY;
  let profileId = '';
  const sessions = new Set<string>();
  for (const website of ctx.scope.websites) {
    yield* scanOwnerSteps(ctx, website.id, ctx.fromMs, ctx.toMs, (event) => {
      const linked = event.anonymousId ? ctx.profiles.profileOfAlias(website.id, event.anonymousId) : undefined;
      if (event.profileId !== id && event.anonymousId !== id && linked !== id) return;
      if (event.sessionId) sessions.add(event.sessionId);
      firstMs = Math.min(firstMs, event.timestamp);
      lastMs = Math.max(lastMs, event.timestamp);
      profileId = event.profileId ?? linked ?? profileId;
    });
  }
  if (sessions.size === 0) return [];
  return [
    {
      visitor_id: id,
      first_visit: formatDateTime(firstMs),
      last_visit: formatDateTime(lastMs),
      total_sessions: sessions.size,
      total_pageviews: 0,
      total_duration: 0,
      total_duration_formatted: formatDuration(0),
      profile_id: profileId,
      device: '',
      browser: '',
      os: '',
      country: '',
      region: '',
    },
  ];
}

function* profileDetailRows(ctx: RunContext): PassSteps<Row[]> {
  const sessions = yield* visitorSessions(ctx);
  const first = sessions[0];
  if (!first) return yield* trackedDetailRows(ctx, requestedVisitorId(ctx));
  let pageviews = 0;
  let seconds = 0;
  let lastMs = 0;
  for (const { batch, index } of sessions) {
    const to = batch.pageOffsets[index + 1] as number;
    for (let p = batch.pageOffsets[index] as number; p < to; p++) {
      pageviews++;
      seconds += batch.pageTimeS[p] as number;
    }
    lastMs = Math.max(lastMs, Math.min(ctx.toMs, sessionEndOf(batch, index)));
  }
  const { batch, index } = first;
  return [
    {
      visitor_id: requestedVisitorId(ctx),
      first_visit: formatDateTime(batch.startMs[index] as number),
      last_visit: formatDateTime(lastMs),
      total_sessions: sessions.length,
      total_pageviews: pageviews,
      total_duration: seconds,
      total_duration_formatted: formatDuration(seconds),
      profile_id: identifiedProfileIdOf(ctx, batch, index),
      device: dimension(ctx, batch, index, 'device_type'),
      browser: dimension(ctx, batch, index, 'browser_name'),
      os: dimension(ctx, batch, index, 'os_name'),
      country: dimension(ctx, batch, index, 'country'),
      region: dimension(ctx, batch, index, 'region'),
    },
  ];
}

type TimedTuple = { timeMs: number; order: number; tuple: (string | number | null)[] };

/** Every activity of one session as profile_sessions nests it: analytics, custom, error and outgoing-link rows. */
function activityOf(ctx: RunContext, website: Website, batch: SessionBatch, index: number): TimedTuple[] {
  const paths = ctx.dictionaries.values.path;
  const out: TimedTuple[] = [];
  for (const e of sessionEventsOf(ctx, website, batch, index)) {
    const analytics = e.name === 'screen_view' || e.name === 'page_exit';
    out.push({
      timeMs: e.timeMs,
      order: out.length,
      tuple: [e.id, formatDateTime(e.timeMs), e.name, paths[e.path] ?? '', analytics ? null : e.properties, analytics ? 'analytics' : 'custom'],
    });
  }
  const errors = ctx.traffic.derived(errorDerivation, website, batch.day);
  const { from, to } = errorsOfSession(errors, index);
  const kinds = errorKindsOf(ctx.dictionaries, website.id);
  for (let k = from; k < to; k++) {
    const kind = kinds[errors.kind[k] as number] ?? (kinds[0] as (typeof kinds)[number]);
    const time = errors.timeMs[k] as number;
    const properties = JSON.stringify({ message: kind.message, filename: errorFilename(kind, website.domain), lineno: kind.lineno, colno: kind.colno });
    const id = `error:${mix(hashString(website.id), batch.day, k).toString(16)}`;
    out.push({ timeMs: time, order: out.length, tuple: [id, formatDateTime(time), kind.type, paths[errors.path[k] as number] ?? '', properties, 'error'] });
  }
  const clicks = ctx.traffic.derived(outboundClicks, website, batch.day);
  for (let c = 0; c < clicks.count; c++) {
    if (clicks.session[c] !== index) continue;
    const link = OUTBOUND_LINKS[clicks.link[c] as number] as (typeof OUTBOUND_LINKS)[number];
    const time = clicks.timeMs[c] as number;
    const id = `link:${mix(hashString(website.id), batch.day, c).toString(16)}`;
    out.push({ timeMs: time, order: out.length, tuple: [id, formatDateTime(time), 'outgoing_link', link.href, JSON.stringify({ href: link.href, text: link.text }), 'outgoing_link'] });
  }
  return out.sort((a, b) => a.timeMs - b.timeMs || a.order - b.order);
}

function* profileSessionRows(ctx: RunContext): PassSteps<Row[]> {
  const paths = ctx.dictionaries.values.path;
  const sessions = yield* visitorSessions(ctx);
  const rows: Row[] = [];
  for (const [rank, { batch, index }] of sessions.entries()) {
    // Each session reads the records of its day (errors, vitals, engagement …), derived here when not kept.
    const before = ctx.traffic.generatedWork();
    rows.push(sessionRow(batch, index, rank));
    yield (ctx.traffic.generatedWork() - before) * GENERATED_RECORD_WORK + SESSION_ROW_WORK;
  }
  return rows.reverse();
  function sessionRow(batch: SessionBatch, index: number, rank: number): Row {
    const website = websiteOf(ctx, batch);
    const activity = activityOf(ctx, website, batch, index).filter((a) => a.timeMs <= ctx.toMs);
    const firstMs = Math.min(batch.startMs[index] as number, (activity[0] as TimedTuple).timeMs);
    const lastMs = Math.min(ctx.toMs, Math.max(sessionEndOf(batch, index), (activity[activity.length - 1] as TimedTuple).timeMs));
    const duration = Math.min(MAX_SESSION_SECONDS, Math.floor((lastMs - firstMs) / 1000));
    const from = batch.pageOffsets[index] as number;
    const to = batch.pageOffsets[index + 1] as number;
    const unique = new Set<number>();
    for (let p = from; p < to; p++) unique.add(batch.pagePaths[p] as number);
    const vitals = vitalsOfSession(ctx.traffic.derived(vitalsDerivation, website, batch.day), index).map((v) => [
      v.metric_name,
      v.metric_value,
      formatDateTime(v.timeMs),
      paths[v.path] ?? '',
    ]);
    const countryCode = batch.dims.country[index] as number;
    return {
      session_id: sessionIdOf(batch, index),
      session_name: `Session ${rank + 1}`,
      first_visit: formatDateTime(firstMs),
      last_visit: formatDateTime(lastMs),
      duration,
      duration_formatted: formatDuration(duration),
      page_views: to - from,
      unique_pages: unique.size,
      device: dimension(ctx, batch, index, 'device_type'),
      browser: dimension(ctx, batch, index, 'browser_name'),
      os: dimension(ctx, batch, index, 'os_name'),
      country: dimension(ctx, batch, index, 'country'),
      region: dimension(ctx, batch, index, 'region'),
      referrer: dimension(ctx, batch, index, 'referrer'),
      events: activity.map((a) => a.tuple),
      web_vitals: vitals,
      country_code: dimension(ctx, batch, index, 'country'),
      country_name: ctx.dictionaries.countryNames[countryCode] ?? '',
    };
  }
}

function* profileRevenueRows(ctx: RunContext): PassSteps<Row[]> {
  const rows: Row[] = [];
  for (const { batch, index } of yield* visitorSessions(ctx)) {
    // The day's revenue, derived here when not kept.
    const before = ctx.traffic.generatedWork();
    const products = productsOf(websiteOf(ctx, batch));
    for (const { revenue, j } of transactionsOf(ctx, batch, index)) {
      const created = revenue.timeMs[j] as number;
      if (created < ctx.fromMs || created > ctx.toMs) continue;
      rows.push({
        transaction_id: transactionIdOf(revenue, j),
        provider: REVENUE_PROVIDERS[revenue.provider[j] as number] ?? '',
        type: REVENUE_TYPES[revenue.type[j] as number] ?? '',
        status: statusOf(revenue, j),
        amount: revenue.amount[j] as number,
        currency: REVENUE_CURRENCIES[revenue.currency[j] as number] ?? '',
        product_name: products[revenue.product[j] as number]?.name ?? '',
        created: formatDateTime(created),
      });
    }
    yield (ctx.traffic.generatedWork() - before) * GENERATED_RECORD_WORK + 1;
  }
  return rows.sort(
    (a, b) => (b.created as string).localeCompare(a.created as string) || (a.transaction_id as string).localeCompare(b.transaction_id as string),
  );
}

/** The profiles family: its types read the profiles of POST /identify; their fields and meta are in profiles-catalogue.json. */
const FAMILY: QueryFamilySpec = { name: 'profiles', readsProfiles: true, catalogue: readCatalogue('profiles', catalogue) };

/** What every profiles declaration below shares. */
const defineProfilesType = declareUnder({
  family: FAMILY,
  filters: ["anonymous_id"],
});

/** The live profiles builders. */
export const profilesTypes: QueryTypeDefinition[] = [
  defineProfilesType({
    name: 'profile_list',
    derives: [deviceDetailsOf, revenueDerivation],
    filters: ["session_count", "total_events", "unique_pages", "event_name", "profile_id"],
    readsTrackedEvents: true,
    steps: profileListRows,
  }),
  defineProfilesType({
    name: 'profile_detail',
    readsTrackedEvents: true,
    steps: profileDetailRows,
  }),
  defineProfilesType({
    name: 'profile_revenue',
    steps: profileRevenueRows,
  }),
  defineProfilesType({
    name: 'profile_sessions',
    steps: profileSessionRows,
  }),
];
