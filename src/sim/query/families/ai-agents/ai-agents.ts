import { isPagePath, isSuccessful } from '../../../model/derived/ai-crawlers.js';
import { DAY_MS } from '../../../model/world.js';
import { createDistinct, round2 } from '../../readers/aggregate.js';
import { aiRequestsSteps, firstServerRequestMs, scanAiVisitsSteps, scanAllVisitsSteps, type AiRequest } from './ai-traffic-scan.js';
import { YIELD_RECORDS, type PassSteps } from '../../engine/pass-steps.js';
import { formatDateTime64 } from '../../readers/date-time64.js';
import { createBucketer } from '../../engine/dates.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { declareUnder, type QueryTypeDefinition, type Row, type RunContext, type QueryFamilySpec } from '../../engine/definition.js';
import { aiCrawlerRequests } from '../../../model/derived/ai-crawlers.js';
import { passesFilters } from '../../engine/filters.js';
import catalogue from './ai-agents-catalogue.json' with { type: 'json' };

/**
 * The ai-agents family: its types read analytics.ai_traffic_spans, deriving aiCrawlerRequests on
 * each day of their range; they report when server-side tracking began, so they read the
 * ingested records of every day. Their fields and meta are in ai-agents-catalogue.json.
 */
const FAMILY: QueryFamilySpec = {
  name: 'ai-agents',
  table: 'analytics.ai_traffic_spans',
  derives: [aiCrawlerRequests],
  readsEveryDay: true,
  catalogue: readCatalogue('ai-agents', catalogue),
};

/** Orders by name: the tie-break of every ranking here. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The successful requests of the range (status unknown or 2xx), as every crawler count reads them; in pieces ({@link PassSteps}). */
function* successfulRequestsSteps(ctx: RunContext, filterFields: readonly string[] = [], range: { fromMs?: number; toMs?: number } = {}): PassSteps<AiRequest[]> {
  return (yield* aiRequestsSteps(ctx, { ...range, filterFields })).filter((r) => isSuccessful(r.status));
}

/** {@link isPagePath}, remembered per path for one pass: the requests repeat a site's pages. */
function pageTester(): (path: string) => boolean {
  const known = new Map<string, boolean>();
  return (path) => {
    let page = known.get(path);
    if (page === undefined) known.set(path, (page = isPagePath(path)));
    return page;
  };
}

/** The agents that made a group of requests, most requests first (ties by id). */
function agentList(requests: readonly AiRequest[]): Row[] {
  const byAgent = new Map<string, { request: AiRequest; requests: number }>();
  for (const r of requests) {
    const entry = byAgent.get(r.agentId) ?? { request: r, requests: 0 };
    entry.requests += r.weight;
    byAgent.set(r.agentId, entry);
  }
  return [...byAgent.values()]
    .sort((a, b) => b.requests - a.requests || byName(a.request.agentId, b.request.agentId))
    .map(({ request, requests }) => ({ agent_id: request.agentId, name: request.agent.name, product: request.agent.product, requests }));
}

/** What counting one request into a group counts for, in records read (a key, a map, a set: about 1 µs). */
const FOLD_WORK = 2;

/** Visits the requests in order, in pieces: yields {@link FOLD_WORK} a request visited ({@link PassSteps}). */
function* eachRequest(requests: readonly AiRequest[], visit: (r: AiRequest) => void): PassSteps<void> {
  let unreported = 0;
  for (const r of requests) {
    visit(r);
    unreported += FOLD_WORK;
    if (unreported >= YIELD_RECORDS) {
      yield unreported;
      unreported = 0;
    }
  }
  if (unreported > 0) yield unreported;
}

/** Requests grouped by a key, in first-seen order; in pieces ({@link PassSteps}). */
function* groupRequests(requests: readonly AiRequest[], keyOf: (r: AiRequest) => string): PassSteps<Map<string, AiRequest[]>> {
  const groups = new Map<string, AiRequest[]>();
  yield* eachRequest(requests, (r) => {
    const key = keyOf(r);
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  });
  return groups;
}

function weightOf(requests: readonly AiRequest[]): number {
  let total = 0;
  for (const r of requests) total += r.weight;
  return total;
}

function lastOf(requests: readonly AiRequest[]): number {
  let last = -1;
  for (const r of requests) if (r.timeMs > last) last = r.timeMs;
  return last;
}

/** Distinct AI-referred visitors per product (weighted), and across products; in pieces ({@link PassSteps}). */
function* aiVisitorsSteps(ctx: RunContext, fromMs = ctx.fromMs, toMs = ctx.toMs): PassSteps<{ byProduct: Map<string, number>; total: number }> {
  const byProduct = new Map<string, number>();
  const productIndex = new Map<string, number>();
  const isNew = createDistinct();
  let total = 0;
  yield* scanAiVisitsSteps(ctx, (batch, _i, product, visitorKey) => {
    let index = productIndex.get(product);
    if (index === undefined) {
      index = productIndex.size + 1;
      productIndex.set(product, index);
    }
    if (isNew(index, visitorKey)) byProduct.set(product, (byProduct.get(product) ?? 0) + batch.weight);
    if (isNew(0, visitorKey)) total += batch.weight;
  }, fromMs, toMs);
  return { byProduct, total };
}

/** Per product: successful requests and purpose split, pages read, visitors sent; ranked by requests + visitors. */
function* aiProductsRows(ctx: RunContext): PassSteps<Row[]> {
  const crawls = new Map<string, { requests: number; pages: Set<string>; training: number; search: number; onDemand: number; answers: number; lastMs: number }>();
  const isPage = pageTester();
  yield* eachRequest(yield* successfulRequestsSteps(ctx), (r) => {
    const c = crawls.get(r.agent.product) ?? { requests: 0, pages: new Set<string>(), training: 0, search: 0, onDemand: 0, answers: 0, lastMs: -1 };
    c.requests += r.weight;
    if (isPage(r.page)) c.pages.add(r.page);
    if (r.agent.purpose === 'training') c.training += r.weight;
    if (r.agent.purpose === 'search_index') c.search += r.weight;
    if (r.agent.purpose === 'user_fetch' || r.agent.purpose === 'agent') c.onDemand += r.weight;
    if (r.agent.purpose === 'user_fetch') c.answers += r.weight;
    if (r.timeMs > c.lastMs) c.lastMs = r.timeMs;
    crawls.set(r.agent.product, c);
  });
  const { byProduct } = yield* aiVisitorsSteps(ctx);
  const since = firstServerRequestMs(ctx);
  const products = [...new Set([...crawls.keys(), ...byProduct.keys()])];
  const rows = products.map((product) => {
    const c = crawls.get(product);
    return {
      product,
      requests: c?.requests ?? 0,
      pages: c?.pages.size ?? 0,
      training: c?.training ?? 0,
      search_index: c?.search ?? 0,
      on_demand: c?.onDemand ?? 0,
      answer_fetches: c?.answers ?? 0,
      visitors: byProduct.get(product) ?? 0,
      last_seen: c ? formatDateTime64(c.lastMs) : null,
      server_tracking_since: since === null ? null : formatDateTime64(since),
      has_proxy: since === null ? 0 : 1,
    };
  });
  rows.sort((a, b) => b.requests + b.visitors - (a.requests + a.visitors) || byName(a.product, b.product));
  return rows.slice(0, ctx.limit ?? 50);
}

/** Successful requests per content format with their pages and the 4 products fetching it most. */
function* aiContentFormatsRows(ctx: RunContext): PassSteps<Row[]> {
  const isPage = pageTester();
  const formats = new Map<string, { requests: number; pages: Set<string>; byProduct: Map<string, number> }>();
  yield* eachRequest(yield* successfulRequestsSteps(ctx), (r) => {
    let f = formats.get(r.format);
    if (!f) formats.set(r.format, (f = { requests: 0, pages: new Set(), byProduct: new Map() }));
    f.requests += r.weight;
    if (isPage(r.page)) f.pages.add(r.page);
    f.byProduct.set(r.agent.product, (f.byProduct.get(r.agent.product) ?? 0) + r.weight);
  });
  return [...formats]
    .map(([format, f]) => ({
      format,
      requests: f.requests,
      pages: f.pages.size,
      products: [...f.byProduct].sort(([a, x], [b, y]) => y - x || byName(a, b)).slice(0, 4).map(([p]) => p),
    }))
    .sort((a, b) => b.requests - a.requests || byName(a.format, b.format));
}

/** AI-referred visitors per bucket and product, buckets ascending. */
function* aiProductVisitorsRows(ctx: RunContext): PassSteps<Row[]> {
  const bucket = createBucketer(ctx.unit, ctx.timezone);
  const keys = new Map<string, number>();
  const visitors = new Map<string, number>();
  const isNew = createDistinct();
  yield* scanAiVisitsSteps(ctx, (batch, i, product, visitorKey) => {
    const key = `${bucket(batch.startMs[i] as number)}\n${product}`;
    let index = keys.get(key);
    if (index === undefined) {
      index = keys.size;
      keys.set(key, index);
    }
    if (isNew(index, visitorKey)) visitors.set(key, (visitors.get(key) ?? 0) + batch.weight);
  });
  return [...visitors]
    .sort(([a], [b]) => byName(a, b))
    .map(([key, count]) => {
      const [date = '', product = ''] = key.split('\n');
      return { date, product, visitors: count };
    });
}

/** Pages read per (page, format), most requested first, up to the limit per format. */
function* aiAgentPagesRows(ctx: RunContext): PassSteps<Row[]> {
  const isPage = pageTester();
  const requests = (yield* successfulRequestsSteps(ctx, ['agent_id', 'path'])).filter((r) => isPage(r.page));
  const rows = [...(yield* groupRequests(requests, (r) => `${r.page}\n${r.format}`))]
    .map(([key, list]) => {
      const [page = '', format = ''] = key.split('\n');
      return { page, format, requests: weightOf(list), lastMs: lastOf(list), list };
    })
    .sort((a, b) => b.requests - a.requests || byName(a.page, b.page) || byName(a.format, b.format));
  const perFormat = new Map<string, number>();
  const limit = ctx.limit ?? 1000;
  const out: Row[] = [];
  for (const row of rows) {
    const seen = perFormat.get(row.format) ?? 0;
    if (seen >= limit) continue;
    perFormat.set(row.format, seen + 1);
    out.push({ page: row.page, format: row.format, requests: row.requests, last_seen: formatDateTime64(row.lastMs), agents: agentList(row.list) });
  }
  return out;
}

/** Requests answered with status 400 or above per (page, format, status); markdown and llms.txt first. */
function* aiFailedRequestsRows(ctx: RunContext): PassSteps<Row[]> {
  const failed = (yield* aiRequestsSteps(ctx, { filterFields: ['agent_id'] })).filter((r) => r.status >= 400 && r.page !== '');
  return [...(yield* groupRequests(failed, (r) => `${r.page}\n${r.format}\n${r.status}`))]
    .map(([, list]) => {
      const first = list[0] as AiRequest;
      return { page: first.page, format: first.format, status_code: first.status, requests: weightOf(list), last_seen: formatDateTime64(lastOf(list)), agents: agentList(list) };
    })
    .sort(
      (a, b) =>
        Number(a.format === 'html') - Number(b.format === 'html') ||
        b.requests - a.requests ||
        byName(a.page, b.page) ||
        a.status_code - b.status_code ||
        byName(a.format, b.format),
    )
    .slice(0, ctx.limit ?? 100);
}

/**
 * The requests at least as new as the `limit`-th newest, in their order: the only ones a stable
 * sort newest first can put among its first `limit`, in the same order (all of them when fewer).
 */
function newestOf(requests: readonly AiRequest[], limit: number): AiRequest[] {
  if (limit <= 0 || requests.length <= limit) return [...requests];
  const times = Float64Array.from(requests, (r) => r.timeMs).sort();
  const oldest = times[times.length - limit] as number;
  return requests.filter((r) => r.timeMs >= oldest);
}

/** The latest individual requests, newest first. */
function* aiRecentRequestsRows(ctx: RunContext): PassSteps<Row[]> {
  const limit = ctx.limit ?? 50;
  const requests = (yield* aiRequestsSteps(ctx, { filterFields: ['agent_id'] })).filter((r) => r.page !== '');
  yield requests.length;
  return newestOf(requests, limit)
    .sort((a, b) => b.timeMs - a.timeMs || byName(a.agentId, b.agentId) || byName(a.page, b.page))
    .slice(0, limit)
    .map((r) => ({
      time: formatDateTime64(r.timeMs),
      agent_id: r.agentId,
      name: r.agent.name,
      product: r.agent.product,
      page: r.page,
      format: r.format,
      status_code: r.status,
      source: r.source,
    }));
}

/** The page each AI-referred visit landed on, with its pageviews and, per sending product, visitors and reads. */
function* aiLandingPagesRows(ctx: RunContext): PassSteps<Row[]> {
  const paths = ctx.dictionaries.values.path;
  const pathPlan = { ...ctx.filters, tests: ctx.filters.tests.filter((t) => t.field === 'path') };
  const landing = new Map<number, { visitors: number; senders: Map<string, number> }>();
  const keyIndex = new Map<string, number>();
  const isNew = createDistinct();
  yield* scanAiVisitsSteps(ctx, (batch, i, product, visitorKey) => {
    const path = batch.pagePaths[batch.pageOffsets[i] as number] as number;
    if (pathPlan.tests.length > 0 && !passesFilters(pathPlan, (field) => (field === 'path' ? (paths[path] ?? '') : ''))) return;
    const page = landing.get(path) ?? { visitors: 0, senders: new Map<string, number>() };
    landing.set(path, page);
    if (isNew(path, visitorKey)) page.visitors += batch.weight;
    const senderKey = `${path}\n${product}`;
    let index = keyIndex.get(senderKey);
    if (index === undefined) {
      index = keyIndex.size;
      keyIndex.set(senderKey, index);
    }
    if (isNew(0x10000 + index, visitorKey)) page.senders.set(product, (page.senders.get(product) ?? 0) + batch.weight);
  });
  const pageviews = new Map<number, number>();
  yield* scanAllVisitsSteps(ctx, (batch, i) => {
    for (let p = batch.pageOffsets[i] as number; p < (batch.pageOffsets[i + 1] as number); p++) {
      const path = batch.pagePaths[p] as number;
      if (landing.has(path)) pageviews.set(path, (pageviews.get(path) ?? 0) + batch.weight);
    }
  });
  const reads = new Map<string, number>();
  yield* eachRequest(yield* successfulRequestsSteps(ctx), (r) => {
    const key = `${r.page}\n${r.agent.product}`;
    reads.set(key, (reads.get(key) ?? 0) + r.weight);
  });
  return [...landing]
    .map(([path, page]) => {
      const name = paths[path] ?? '';
      return {
        page: name,
        visitors: page.visitors,
        pageviews: pageviews.get(path) ?? 0,
        senders: [...page.senders]
          .sort(([a, x], [b, y]) => y - x || byName(a, b))
          .map(([product, visitors]) => ({ product, visitors, reads: reads.get(`${name}\n${product}`) ?? 0 })),
      };
    })
    .sort((a, b) => b.visitors - a.visitors || b.pageviews - a.pageviews || byName(a.page, b.page))
    .slice(0, ctx.limit ?? 100);
}

/** Visits, pages per visit and the share of visits with 2+ pages: all visitors, all AI visitors, each AI product. */
function* aiVisitorOutcomesRows(ctx: RunContext): PassSteps<Row[]> {
  interface Outcome { visitors: number; sessions: number; pageviews: number; engaged: number }
  const empty = (): Outcome => ({ visitors: 0, sessions: 0, pageviews: 0, engaged: 0 });
  const isNew = createDistinct();
  const add = (o: Outcome, group: number, pages: number, weight: number, visitorKey: number): void => {
    o.sessions += weight;
    o.pageviews += pages * weight;
    if (pages > 1) o.engaged += weight;
    if (isNew(group, visitorKey)) o.visitors += weight;
  };
  const all = empty();
  yield* scanAllVisitsSteps(ctx, (batch, i, visitorKey) => {
    add(all, 0, (batch.pageOffsets[i + 1] as number) - (batch.pageOffsets[i] as number), batch.weight, visitorKey);
  });
  const ai = empty();
  const products = new Map<string, { group: number; outcome: Outcome }>();
  yield* scanAiVisitsSteps(ctx, (batch, i, product, visitorKey) => {
    const pages = (batch.pageOffsets[i + 1] as number) - (batch.pageOffsets[i] as number);
    add(ai, 1, pages, batch.weight, visitorKey);
    let entry = products.get(product);
    if (!entry) {
      entry = { group: products.size + 2, outcome: empty() };
      products.set(product, entry);
    }
    add(entry.outcome, entry.group, pages, batch.weight, visitorKey);
  });
  const row = (product: string, o: Outcome): Row => ({
    product,
    visitors: o.visitors,
    pages_per_visit: o.sessions > 0 ? round2(o.pageviews / o.sessions) : 0,
    engaged_rate: o.sessions > 0 ? Math.round((o.engaged / o.sessions) * 1000) / 10 : 0,
  });
  const perProduct = [...products]
    .sort(([a, x], [b, y]) => y.outcome.visitors - x.outcome.visitors || byName(a, b))
    .map(([product, { outcome }]) => row(product, outcome));
  return [row('All visitors', all), row('All AI visitors', ai), ...perProduct].slice(0, ctx.limit ?? 20);
}

/** Per agent: its identity, successful requests, pages read per format, markdown and llms.txt requests. */
function* aiCrawlersRows(ctx: RunContext): PassSteps<Row[]> {
  const isPage = pageTester();
  const rows = [];
  for (const [agentId, list] of yield* groupRequests(yield* successfulRequestsSteps(ctx), (r) => r.agentId)) {
    // Each agent's requests are read a few times over (pages per format).
    yield list.length;
    const agent = (list[0] as AiRequest).agent;
    const pagesOf = (format?: string): number =>
      new Set(list.filter((r) => (format === undefined || r.format === format) && isPage(r.page)).map((r) => r.page)).size;
    rows.push({
      agent_id: agentId,
      name: agent.name,
      product: agent.product,
      operator: agent.operator,
      purpose: agent.purpose,
      purpose_inferred: agent.purposeInferred ? 1 : 0,
      requests: weightOf(list),
      pages: pagesOf(),
      html_pages: pagesOf('html'),
      markdown_pages: pagesOf('markdown'),
      llms_pages: pagesOf('llms'),
      markdown: weightOf(list.filter((r) => r.format === 'markdown')),
      llms: weightOf(list.filter((r) => r.format === 'llms')),
      last_seen: formatDateTime64(lastOf(list)),
      user_agent: agent.userAgent,
    });
  }
  return rows.sort((a, b) => b.requests - a.requests || byName(a.agent_id, b.agent_id)).slice(0, ctx.limit ?? 50);
}

/** Successful requests per bucket split by format; only buckets with requests. */
function* aiCrawlerActivityRows(ctx: RunContext): PassSteps<Row[]> {
  const bucket = createBucketer(ctx.unit, ctx.timezone);
  const byBucket = new Map<string, { requests: number; markdown: number; llms: number; html: number }>();
  yield* eachRequest(yield* successfulRequestsSteps(ctx, ['agent_id']), (r) => {
    const date = bucket(r.timeMs);
    const b = byBucket.get(date) ?? { requests: 0, markdown: 0, llms: 0, html: 0 };
    b.requests += r.weight;
    b[r.format] += r.weight;
    byBucket.set(date, b);
  });
  return [...byBucket].sort(([a], [b]) => byName(a, b)).map(([date, b]) => ({ date, ...b }));
}

/** Days of comparable history the new-page counts need before the period. */
const HISTORY_DAYS = 90;

/** Per product: this period against the one before, pages new against 90 days of history, and site totals. */
function* aiWeeklyDigestRows(ctx: RunContext): PassSteps<Row[]> {
  const length = Math.max(DAY_MS, ctx.requestedToMs + 1 - ctx.fromMs);
  const previous = { fromMs: ctx.fromMs - length, toMs: ctx.fromMs - 1 };
  const history = { fromMs: ctx.fromMs - HISTORY_DAYS * DAY_MS, toMs: ctx.fromMs - 1 };
  const current = yield* successfulRequestsSteps(ctx);
  const before = yield* successfulRequestsSteps(ctx, [], previous);
  const since = firstServerRequestMs(ctx);
  const firstEventMs = ctx.scope.kind === 'websites' ? Math.min(...ctx.scope.websites.map((w) => w.createdAt)) : ctx.fromMs;
  const historyStart = since !== null && since <= ctx.toMs ? since : firstEventMs;
  const hasHistory = ctx.fromMs - historyStart >= HISTORY_DAYS * DAY_MS;
  const readBefore = new Map<string, Set<string>>();
  const siteReadBefore = new Set<string>();
  if (hasHistory) {
    for (const r of yield* successfulRequestsSteps(ctx, [], history)) {
      if (!isPagePath(r.page)) continue;
      const set = readBefore.get(r.agent.product) ?? new Set<string>();
      set.add(r.page);
      readBefore.set(r.agent.product, set);
      siteReadBefore.add(r.page);
    }
  }
  const visitorsNow = yield* aiVisitorsSteps(ctx);
  const visitorsBefore = yield* aiVisitorsSteps(ctx, previous.fromMs, previous.toMs);
  const perProduct = yield* groupRequests(current, (r) => r.agent.product);
  const previousRequests = new Map<string, number>();
  for (const r of before) previousRequests.set(r.agent.product, (previousRequests.get(r.agent.product) ?? 0) + r.weight);
  const siteNewPages = new Set(current.filter((r) => isPagePath(r.page) && !siteReadBefore.has(r.page)).map((r) => r.page)).size;
  const siteServer = current.some((r) => r.source !== 'browser') ? 1 : 0;
  const products = [...new Set([...perProduct.keys(), ...previousRequests.keys(), ...visitorsNow.byProduct.keys(), ...visitorsBefore.byProduct.keys()])];
  const rows = products.map((product) => {
    const list = perProduct.get(product) ?? [];
    const purposes = new Map<string, number>();
    for (const r of list) purposes.set(r.agent.purpose, (purposes.get(r.agent.purpose) ?? 0) + r.weight);
    const purpose = [...purposes].sort(([a, x], [b, y]) => y - x || byName(a, b))[0]?.[0] ?? '';
    const seen = readBefore.get(product);
    const newPages = hasHistory ? new Set(list.filter((r) => isPagePath(r.page) && !seen?.has(r.page)).map((r) => r.page)).size : null;
    return {
      product,
      purpose,
      visitors: visitorsNow.byProduct.get(product) ?? 0,
      previous_visitors: visitorsBefore.byProduct.get(product) ?? 0,
      requests: weightOf(list),
      previous_requests: previousRequests.get(product) ?? 0,
      new_pages: newPages,
      site_visitors: visitorsNow.total,
      site_previous_visitors: visitorsBefore.total,
      site_new_pages: hasHistory ? siteNewPages : null,
      site_has_server_tracking: siteServer,
      site_server_tracking_since: since === null ? null : formatDateTime64(since),
    };
  });
  return rows
    .filter((r) => r.visitors + r.previous_visitors + r.requests + r.previous_requests + (r.new_pages ?? 0) > 0)
    .sort((a, b) => b.visitors + b.requests - (a.visitors + a.requests) || byName(a.product, b.product))
    .slice(0, ctx.limit ?? 20);
}


/** What every ai-agents declaration below shares. */
const defineAiAgentsType = declareUnder({
  family: FAMILY,
  customizable: false,
  paging: 'self',
});

/** The live ai-agents builders. */
export const aiAgentsTypes: QueryTypeDefinition[] = [
  defineAiAgentsType({
    name: 'ai_products',
    steps: aiProductsRows,
  }),
  defineAiAgentsType({
    name: 'ai_content_formats',
    steps: aiContentFormatsRows,
  }),
  defineAiAgentsType({
    name: 'ai_product_visitors',
    derives: [],
    steps: aiProductVisitorsRows,
  }),
  defineAiAgentsType({
    name: 'ai_agent_pages',
    derives: [],
    filters: ["agent_id", "path"],
    steps: aiAgentPagesRows,
  }),
  defineAiAgentsType({
    name: 'ai_failed_requests',
    filters: ["agent_id"],
    steps: aiFailedRequestsRows,
  }),
  defineAiAgentsType({
    name: 'ai_recent_requests',
    filters: ["agent_id"],
    steps: aiRecentRequestsRows,
  }),
  defineAiAgentsType({
    name: 'ai_landing_pages',
    filters: ["path"],
    steps: aiLandingPagesRows,
  }),
  defineAiAgentsType({
    name: 'ai_visitor_outcomes',
    steps: aiVisitorOutcomesRows,
  }),
  defineAiAgentsType({
    name: 'ai_crawlers',
    steps: aiCrawlersRows,
  }),
  defineAiAgentsType({
    name: 'ai_crawler_activity',
    filters: ["agent_id"],
    steps: aiCrawlerActivityRows,
  }),
  defineAiAgentsType({
    name: 'ai_weekly_digest',
    // It reads the period before its range too, which the days generated before the pass do not cover.
    steps: aiWeeklyDigestRows,
  }),
];
