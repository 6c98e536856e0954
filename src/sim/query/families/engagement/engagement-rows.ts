import { ENGAGEMENT_SPANS } from '../../../ingest/span-kinds.js';
import type { Website } from '../../../model/entities.js';
import { CLICK_TARGETS, engagementDerivation, FORM_FIELDS, SCROLL_RANGES, scrollRangeIndex, type EngagementBatch } from '../../../model/derived/engagement.js';
import { errorDerivation } from '../../../model/derived/errors.js';
import type { SessionBatch } from '../../../model/traffic.js';
import { createDistinct } from '../../readers/aggregate.js';
import { scanIngested } from '../../readers/activity-scan.js';
import type { Row, RunContext } from '../../engine/definition.js';
import { createDistinctGroups, type CountedDistinctGroups } from '../../readers/distinct-groups.js';
import { foldDigestDay, walkDigestDaysSteps } from '../../readers/digest-days.js';
import { runToEnd, type PassSteps } from '../../engine/pass-steps.js';
import { EXIT_ENGAGEMENT_DIGEST, exitPageName, type DigestGroups, type ExitEngagementDigest } from './exit-engagement-digest.js';
import { SPAN_PAGE_DIGEST, type SpanPageDigest } from './span-page-digest.js';
import { createValueCounts, type ValueCounts } from '../../readers/value-counts.js';
import { createVisitorBits } from '../../readers/visitor-bits.js';
import type { PackedLists } from '../../readers/packed-lists.js';
import { NO_FILTERS, scanIdentifiedSessionsSteps } from '../../readers/session-identity.js';
import { pagePath } from '../../readers/vitals-labels.js';

/**
 * Row sources of the engagement family. The engagement-span types (frustration, forms, quality)
 * read one span per pageview and ignore request filters, as live, and then the spans posted to
 * `POST /engagement` (weight 1 each, with their own counters); the page_exit types (scroll
 * depth, interactions) read the same pageviews' exit events and honour the global filters.
 */

/**
 * One pageview with its engagement, as a visitor of {@link scanPageviews} receives it: one
 * object updated in place for each pageview, so copy what must outlive the call.
 */
interface Pageview {
  batch: SessionBatch;
  session: number;
  /** Index into the batch's page columns and the engagement batch. */
  p: number;
  engagement: EngagementBatch;
  website: Website;
  /** Serial of the session in this scan (unique), for distinct session counts. */
  serial: number;
  visitorKey: number;
  weight: number;
}

function websiteOf(ctx: RunContext, batch: SessionBatch): Website {
  if (ctx.scope.kind !== 'websites') throw new Error('engagement needs a website');
  return ctx.scope.websites.find((w) => w.id === batch.websiteId) ?? (ctx.scope.websites[0] as Website);
}

/**
 * Visits every pageview of the range's sessions. With `filtered`, sessions pass the request's
 * filters and pageviews the path filter; without, every pageview counts.
 */
function scanPageviews(ctx: RunContext, filtered: boolean, visit: (view: Pageview) => void, fromMs = ctx.fromMs, toMs = ctx.toMs, serials = { last: 0 }): void {
  runToEnd(scanPageviewsSteps(ctx, filtered, visit, fromMs, toMs, serials));
}

/**
 * {@link scanPageviews} in pieces: yields each website-day's session samples read, and what the
 * day's engagement cost when derived again ({@link scanSessionsSteps} counts it; {@link PassSteps}).
 */
function* scanPageviewsSteps(ctx: RunContext, filtered: boolean, visit: (view: Pageview) => void, fromMs = ctx.fromMs, toMs = ctx.toMs, serials = { last: 0 }): PassSteps<void> {
  const scoped: RunContext = filtered ? ctx : { ...ctx, filters: NO_FILTERS };
  const pathMask = filtered ? ctx.filters.masks.get('path') : undefined;
  let lastBatch: SessionBatch | null = null;
  let view: Pageview | null = null;
  yield* scanIdentifiedSessionsSteps(scoped, (batch, session, _matched, visitorKey, weight) => {
    const serial = ++serials.last;
    if (batch !== lastBatch || view === null) {
      lastBatch = batch;
      const website = websiteOf(ctx, batch);
      const engagement = ctx.traffic.derived(engagementDerivation, website, batch.day);
      view ??= { batch, session, p: 0, engagement, website, serial, visitorKey, weight };
      view.batch = batch;
      view.website = website;
      view.engagement = engagement;
    }
    view.session = session;
    view.serial = serial;
    view.visitorKey = visitorKey;
    view.weight = weight;
    const to = batch.pageOffsets[session + 1] as number;
    for (let p = batch.pageOffsets[session] as number; p < to; p++) {
      if (pathMask && pathMask[batch.pagePaths[p] as number] === 0) continue;
      view.p = p;
      visit(view);
    }
  }, fromMs, toMs);
}

/**
 * Visits the range's pageviews as `scanPageviews(ctx, true, visit)` does, but without filters on
 * one website the days the range covers whole fold their {@link EXIT_ENGAGEMENT_DIGEST} instead
 * (sums of whole numbers; the page_exit types read no ingested sessions).
 */
function* walkExitPageviews(ctx: RunContext, visit: (view: Pageview) => void, fold: (digest: ExitEngagementDigest) => void): PassSteps<void> {
  const serials = { last: 0 };
  const digested = yield* walkDigestDaysSteps(ctx, {
    part: (fromMs, toMs) => scanPageviews(ctx, true, visit, fromMs, toMs, serials),
    whole: (website, day) => foldDigestDay(ctx, EXIT_ENGAGEMENT_DIGEST, website, day, fold),
  });
  if (!digested) yield* scanPageviewsSteps(ctx, true, visit, ctx.fromMs, ctx.toMs, serials);
}

/** Adds group `k` of a day's digest groups to `counts` as `key`, each session and visitor standing for `weight`. */
function foldGroup<K>(counts: CountedDistinctGroups<K>, key: K, groups: DigestGroups, k: number, weight: number): void {
  counts.addCounted(key, groups.sessions[k] as number, groups.visitors, groups.visitorOffsets[k] as number, groups.visitorOffsets[k + 1] as number, weight);
}

/** Rounds to one decimal, the precision of the engagement rates and averages. */
function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function percent1(part: number, whole: number): number {
  return whole > 0 ? round1((part / whole) * 100) : 0;
}

/** The most frequent entry of a tally (ties by name); '' when empty. */
function topOf(tally: ReadonlyMap<string, number>): string {
  let best = '';
  let bestCount = 0;
  for (const [name, count] of tally) {
    if (count > bestCount || (count === bestCount && name < best)) {
      best = name;
      bestCount = count;
    }
  }
  return best;
}

function tallyAdd(tally: Map<string, number>, name: string, weight: number): void {
  if (name !== '') tally.set(name, (tally.get(name) ?? 0) + weight);
}

const byName = (a: Row, b: Row): number => ((a.name as string) < (b.name as string) ? -1 : (a.name as string) > (b.name as string) ? 1 : 0);

/** Pageview indexes of a website's day that raised at least one error. */
function erroredPageviews(ctx: RunContext, website: Website, day: number): Set<number> {
  const errors = ctx.traffic.derived(errorDerivation, website, day);
  return new Set(errors.pageview);
}

/** Per-page spans for the HAVING page_views ≥ 5 builders. */
interface SpanPage {
  views: number;
  visitors: number;
  rage: number;
  dead: number;
  errored: number;
  readonly rageTargets: Map<string, number>;
  readonly deadTargets: Map<string, number>;
  timeOnPage: number;
  active: number;
  scroll: number;
  interactions: number;
  readonly firstInteraction: ValueCounts;
}

/** Names of the path dictionary as `name` gives them, computed once per path code. */
function createPageNamer(ctx: RunContext, name: (path: string) => string): (code: number) => string {
  const paths = ctx.dictionaries.values.path;
  const names: (string | undefined)[] = [];
  return (code) => {
    let known = names[code];
    if (known === undefined) {
      const raw = paths[code] ?? '';
      known = raw === '' ? '' : name(raw);
      names[code] = known;
    }
    return known;
  };
}

/** Adds a day's {@link SpanPageDigest} to the pages of {@link spanPages}, as its pageviews would have counted. */
function foldSpanPages(digest: SpanPageDigest, pageOf: (name: string) => SpanPage & { index: number }, newVisitor: (group: number, key: number) => boolean): void {
  const w = digest.weight;
  const tallyFold = (into: Map<string, number>, codes: PackedLists, counts: PackedLists, k: number): void => {
    for (let t = codes.offsets[k] as number; t < (codes.offsets[k + 1] as number); t++) tallyAdd(into, CLICK_TARGETS[codes.values[t] as number] ?? '', (counts.values[t] as number) * w);
  };
  digest.names.forEach((name, k) => {
    const page = pageOf(name);
    page.views += (digest.views[k] as number) * w;
    for (let v = digest.visitors.offsets[k] as number; v < (digest.visitors.offsets[k + 1] as number); v++) {
      if (newVisitor(page.index, digest.visitors.values[v] as number)) page.visitors += w;
    }
    page.rage += (digest.rage[k] as number) * w;
    page.dead += (digest.dead[k] as number) * w;
    page.errored += (digest.errored[k] as number) * w;
    tallyFold(page.rageTargets, digest.rageTargets, digest.rageTargetCounts, k);
    tallyFold(page.deadTargets, digest.deadTargets, digest.deadTargetCounts, k);
    page.timeOnPage += (digest.timeOnPage[k] as number) * w;
    page.active += (digest.active[k] as number) * w;
    page.scroll += (digest.scroll[k] as number) * w;
    page.interactions += (digest.interactions[k] as number) * w;
    const { offsets, values } = digest.firstInteraction;
    const from = offsets[k] as number;
    const to = offsets[k + 1] as number;
    if (to > from) page.firstInteraction.addCounts(values.subarray(from, to), digest.firstInteractionCounts.values.subarray(from, to));
  });
}

function* spanPages(ctx: RunContext): PassSteps<Map<string, SpanPage>> {
  const nameOf = createPageNamer(ctx, pagePath);
  const pages = new Map<string, SpanPage & { index: number }>();
  // One website's visitor keys are small: a bitmap per page beats a hash set on a long range.
  const newVisitor = ctx.scope.kind === 'websites' && ctx.scope.websites.length === 1 ? createVisitorBits() : createDistinct();
  let lastBatch: SessionBatch | null = null;
  let errors = new Set<number>();
  const pageOf = (name: string): SpanPage & { index: number } => {
    let page = pages.get(name);
    if (!page) {
      page = { index: pages.size, views: 0, visitors: 0, rage: 0, dead: 0, errored: 0, rageTargets: new Map(), deadTargets: new Map(), timeOnPage: 0, active: 0, scroll: 0, interactions: 0, firstInteraction: createValueCounts() };
      pages.set(name, page);
    }
    return page;
  };
  const visit = ({ batch, p, engagement: e, website, visitorKey, weight }: Pageview): void => {
    const name = nameOf(batch.pagePaths[p] as number);
    if (name === '') return;
    const page = pageOf(name);
    if (batch !== lastBatch) {
      lastBatch = batch;
      errors = erroredPageviews(ctx, website, batch.day);
    }
    page.views += weight;
    if (newVisitor(page.index, visitorKey)) page.visitors += weight;
    if ((e.rageClicks[p] as number) > 0) {
      page.rage += weight;
      tallyAdd(page.rageTargets, CLICK_TARGETS[e.rageTarget[p] as number] ?? '', weight);
    }
    if ((e.deadClicks[p] as number) > 0) {
      page.dead += weight;
      tallyAdd(page.deadTargets, CLICK_TARGETS[e.deadTarget[p] as number] ?? '', weight);
    }
    if (errors.has(p)) page.errored += weight;
    page.timeOnPage += (batch.pageTimeS[p] as number) * weight;
    page.active += (e.activeS[p] as number) * weight;
    page.scroll += (e.scrollDepth[p] as number) * weight;
    page.interactions += (e.interactions[p] as number) * weight;
    const ttfi = e.firstInteractionMs[p] as number;
    if (ttfi > 0) page.firstInteraction.add(ttfi);
  };
  // Without filters on one website, whole days fold their digest. With filters the spans still read
  // every pageview, one by one: what the digests are checked against.
  const serials = { last: 0 };
  const digested = yield* walkDigestDaysSteps(ctx, {
    part: (fromMs, toMs) => scanPageviews(ctx, false, visit, fromMs, toMs, serials),
    whole: (website, day) => foldDigestDay(ctx, SPAN_PAGE_DIGEST, website, day, (digest) => foldSpanPages(digest, pageOf, newVisitor)),
  });
  if (!digested) yield* scanPageviewsSteps(ctx, false, visit);
  scanIngested(ctx, ENGAGEMENT_SPANS, { apply: false }, ({ record, visitorKey }) => {
    const name = record.path === '' ? '' : pagePath(record.path);
    if (name === '') return;
    const page = pageOf(name);
    page.views += 1;
    if (newVisitor(page.index, visitorKey)) page.visitors += 1;
    if (record.rageClickCount > 0) {
      page.rage += 1;
      tallyAdd(page.rageTargets, record.rageClickTarget, 1);
    }
    if (record.deadClickCount > 0) {
      page.dead += 1;
      tallyAdd(page.deadTargets, record.deadClickTarget, 1);
    }
    if (record.errorCount > 0) page.errored += 1;
    page.timeOnPage += record.timeOnPage;
    page.active += record.activeTime;
    page.scroll += record.maxScrollDepth;
    page.interactions += record.interactionCount;
    if (record.timeToFirstInteraction > 0) page.firstInteraction.add(record.timeToFirstInteraction);
  });
  return pages;
}

/** One row per page of {@link spanPages} with at least 5 views (the builders' HAVING page_views >= 5), made by `rowOf`. */
function* busyPageRows(ctx: RunContext, rowOf: (name: string, page: SpanPage) => Row): PassSteps<Row[]> {
  const rows: Row[] = [];
  for (const [name, page] of yield* spanPages(ctx)) {
    if (page.views < 5) continue;
    rows.push(rowOf(name, page));
    yield page.firstInteraction.size();
  }
  return rows;
}

/** frustration_by_page: rage, dead and error rates per page of at least 5 views. */
export function* frustrationRows(ctx: RunContext): PassSteps<Row[]> {
  const rows = yield* busyPageRows(ctx, (name, page) => ({
    name,
    page_views: page.views,
    visitors: page.visitors,
    rage_click_rate: percent1(page.rage, page.views),
    dead_click_rate: percent1(page.dead, page.views),
    error_rate: percent1(page.errored, page.views),
    top_dead_click_target: topOf(page.deadTargets),
    top_rage_click_target: topOf(page.rageTargets),
  }));
  const frustration = (r: Row): number => (r.rage_click_rate as number) + (r.dead_click_rate as number);
  return rows.sort((a, b) => frustration(b) - frustration(a) || (b.page_views as number) - (a.page_views as number) || byName(a, b));
}

/** engagement_quality_by_page: time, attention, scroll and interaction per page of at least 5 views. */
export function* qualityRows(ctx: RunContext): PassSteps<Row[]> {
  const rows = yield* busyPageRows(ctx, (name, page) => ({
    name,
    page_views: page.views,
    avg_time_on_page: round1(page.timeOnPage / page.views),
    avg_active_time: round1(page.active / page.views),
    attention_ratio: round1((100 * page.active) / Math.max(page.timeOnPage, 1)),
    avg_scroll_depth: round1(page.scroll / page.views),
    avg_interactions: round1(page.interactions / page.views),
    median_time_to_first_interaction: page.firstInteraction.median(),
  }));
  return rows.sort((a, b) => (b.page_views as number) - (a.page_views as number) || byName(a, b));
}

/** form_abandonment_by_page: form starts, submits and abandonment per page of at least 5 starts. */
export function* formRows(ctx: RunContext): PassSteps<Row[]> {
  const nameOf = createPageNamer(ctx, pagePath);
  const pages = new Map<string, { starts: number; submits: number; abandoned: number; fields: Map<string, number> }>();
  yield* scanPageviewsSteps(ctx, false, ({ batch, p, engagement: e, weight }) => {
    if ((e.formFields[p] as number) === 0) return;
    const name = nameOf(batch.pagePaths[p] as number);
    if (name === '') return;
    const page = pages.get(name) ?? { starts: 0, submits: 0, abandoned: 0, fields: new Map<string, number>() };
    pages.set(name, page);
    page.starts += weight;
    if (e.formSubmitted[p] === 1) page.submits += weight;
    if (e.formAbandoned[p] === 1) {
      page.abandoned += weight;
      tallyAdd(page.fields, FORM_FIELDS[e.lastField[p] as number] ?? '', weight);
    }
  });
  scanIngested(ctx, ENGAGEMENT_SPANS, { apply: false }, ({ record }) => {
    if (record.formFieldCount === 0 || record.path === '') return;
    const name = pagePath(record.path);
    const page = pages.get(name) ?? { starts: 0, submits: 0, abandoned: 0, fields: new Map<string, number>() };
    pages.set(name, page);
    page.starts += 1;
    if (record.formSubmitCount > 0) page.submits += 1;
    if (record.formAbandoned) {
      page.abandoned += 1;
      tallyAdd(page.fields, record.lastFormField, 1);
    }
  });
  const rows: Row[] = [];
  for (const [name, page] of pages) {
    if (page.starts < 5) continue;
    rows.push({
      name,
      form_starts: page.starts,
      form_submits: page.submits,
      abandonment_rate: percent1(page.abandoned, page.starts),
      top_abandoned_field: topOf(page.fields),
    });
  }
  return rows.sort(
    (a, b) => (b.abandonment_rate as number) - (a.abandonment_rate as number) || (b.form_starts as number) - (a.form_starts as number) || byName(a, b),
  );
}

/** scroll_depth_summary: the average positive exit scroll depth and the sessions and visitors reporting one. */
export function* scrollSummaryRows(ctx: RunContext): PassSteps<Row[]> {
  const counts = createDistinctGroups<number>();
  let depthTotal = 0;
  let views = 0;
  yield* walkExitPageviews(
    ctx,
    ({ p, engagement: e, serial, visitorKey, weight }) => {
      const depth = e.scrollDepth[p] as number;
      if (depth === 0) return;
      depthTotal += depth * weight;
      views += weight;
      counts.add(0, serial, visitorKey, weight);
    },
    (digest) => {
      depthTotal += digest.depthSum * digest.weight;
      views += digest.scrolledViews * digest.weight;
      if (digest.scrolled.sessions.length > 0) foldGroup(counts, 0, digest.scrolled, 0, digest.weight);
    },
  );
  const c = counts.groups.get(0);
  return [{ avg_scroll_depth: views > 0 ? round1(depthTotal / views) : 0, total_sessions: c?.sessions ?? 0, visitors: c?.visitors ?? 0 }];
}

/** scroll_depth_distribution: sessions and visitors per scroll-depth range, shallowest first. */
export function* scrollDistributionRows(ctx: RunContext): PassSteps<Row[]> {
  const counts = createDistinctGroups<number>();
  yield* walkExitPageviews(
    ctx,
    ({ p, engagement: e, serial, visitorKey, weight }) => {
      const depth = e.scrollDepth[p] as number;
      if (depth > 0) counts.add(scrollRangeIndex(depth), serial, visitorKey, weight);
    },
    (digest) => {
      digest.ranges.sessions.forEach((sessions, k) => {
        if (sessions > 0) foldGroup(counts, k, digest.ranges, k, digest.weight);
      });
    },
  );
  let total = 0;
  for (const c of counts.groups.values()) total += c.sessions;
  return SCROLL_RANGES.flatMap((depth_range, k) => {
    const c = counts.groups.get(k);
    return c ? [{ depth_range, visitors: c.visitors, sessions: c.sessions, percentage: total > 0 ? Math.round((c.sessions / total) * 10_000) / 100 : 0 }] : [];
  });
}

/** page_scroll_performance: average exit scroll depth per page, deepest first. */
export function* pageScrollRows(ctx: RunContext): PassSteps<Row[]> {
  const paths = ctx.dictionaries.values.path;
  const nameOf = createPageNamer(ctx, exitPageName);
  const counts = createDistinctGroups<string>();
  const depth = new Map<string, { total: number; views: number }>();
  const pageOf = (name: string): { total: number; views: number } => {
    const page = depth.get(name) ?? { total: 0, views: 0 };
    depth.set(name, page);
    return page;
  };
  yield* walkExitPageviews(
    ctx,
    ({ batch, p, engagement: e, serial, visitorKey, weight }) => {
      const code = batch.pagePaths[p] as number;
      const d = e.scrollDepth[p] as number;
      if (d === 0 || (paths[code] ?? '') === '') return;
      const name = nameOf(code);
      const page = pageOf(name);
      page.total += d * weight;
      page.views += weight;
      counts.add(name, serial, visitorKey, weight);
    },
    (digest) => {
      digest.pageNames.forEach((name, k) => {
        const page = pageOf(name);
        page.total += (digest.pageDepthSums[k] as number) * digest.weight;
        page.views += (digest.pageViews[k] as number) * digest.weight;
        foldGroup(counts, name, digest.pages, k, digest.weight);
      });
    },
  );
  const rows: Row[] = [...depth].map(([name, page]) => {
    const c = counts.groups.get(name);
    return { name, avg_scroll_depth: round1(page.total / page.views), visitors: c?.visitors ?? 0, sessions: c?.sessions ?? 0, pageviews: page.views };
  });
  return rows.sort((a, b) => (b.avg_scroll_depth as number) - (a.avg_scroll_depth as number) || byName(a, b));
}

/** interaction_summary: interactions per session reported on page exit. */
export function* interactionRows(ctx: RunContext): PassSteps<Row[]> {
  const all = createDistinctGroups<number>();
  const interactive = createDistinctGroups<number>();
  let interactions = 0;
  const none = new Uint32Array(0);
  yield* walkExitPageviews(
    ctx,
    ({ p, engagement: e, serial, visitorKey, weight }) => {
      const n = e.interactions[p] as number;
      interactions += n * weight;
      all.add(0, serial, visitorKey, weight);
      if (n > 0) interactive.add(0, serial, visitorKey, weight);
    },
    (digest) => {
      // Only sessions are reported here: the visitors are left uncounted.
      interactions += digest.interactions * digest.weight;
      if (digest.viewedSessions > 0) all.addCounted(0, digest.viewedSessions, none, 0, 0, digest.weight);
      if (digest.interactiveSessions > 0) interactive.addCounted(0, digest.interactiveSessions, none, 0, 0, digest.weight);
    },
  );
  const sessions = all.groups.get(0)?.sessions ?? 0;
  const active = interactive.groups.get(0)?.sessions ?? 0;
  return [
    {
      avg_interactions: sessions > 0 ? round1(interactions / sessions) : 0,
      interactive_sessions: active,
      interaction_rate: percent1(active, sessions),
      total_sessions: sessions,
    },
  ];
}
