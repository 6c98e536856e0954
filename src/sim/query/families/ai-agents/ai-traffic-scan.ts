import type { Website } from '../../../model/entities.js';
import {
  AI_AGENTS,
  aiCrawlerRequests,
  CONTENT_FORMATS,
  REQUEST_SOURCES,
  requestPath,
  serverTrackingSince,
  type AiAgent,
} from '../../../model/derived/ai-crawlers.js';
import { aiProductOfReferrer } from '../../../model/derived/ai-referrals.js';
import type { SessionBatch } from '../../../model/traffic.js';
import { DAY_MS } from '../../../model/world.js';
import { AI_AGENT_HITS } from '../../../ingest/ai-agent-hits.js';
import type { RunContext } from '../../engine/definition.js';
import { passesFilters, type FilterPlan } from '../../engine/filters.js';
import { scanSessionsSteps } from '../../readers/scan.js';
import { GENERATED_RECORD_WORK, YIELD_RECORDS, type PassSteps } from '../../engine/pass-steps.js';

/** One AI crawler or agent request, as the ai-agents types read it (the live `ai_traffic_spans` row). */
export interface AiRequest {
  readonly timeMs: number;
  readonly website: Website;
  readonly agentId: string;
  readonly agent: AiAgent;
  readonly page: string;
  readonly format: (typeof CONTENT_FORMATS)[number];
  /** HTTP status; 0 when unknown. */
  readonly status: number;
  readonly source: (typeof REQUEST_SOURCES)[number];
  /** Real requests the record stands for. */
  readonly weight: number;
}

/**
 * What a request record read counts for, in records read: making its {@link AiRequest} costs
 * about 0.8 µs, twice a session sample's scan, and the types then group and count the requests.
 */
const REQUEST_WORK = 2;

/** What {@link aiRequestsSteps} reads. */
export interface AiRequestOptions {
  readonly fromMs?: number;
  readonly toMs?: number;
  /** Filter fields the type applies to its requests (`agent_id`, `path`); none by default. */
  readonly filterFields?: readonly string[];
}

/**
 * The AI requests of the scope's websites within the range (the query's unless told), passing
 * the request's filters on `filterFields` (agent_id, path: tested on the request's agent and
 * page). Generated records (each standing for `weight` requests) and the requests `POST
 * /ai-traffic` received (one each, source `middleware`, no status) add up alike. In a fixed
 * order: website, day, generated records, then received ones in arrival order. In pieces: yields
 * the records read, a few website-days at a time ({@link PassSteps}).
 */
export function* aiRequestsSteps(ctx: RunContext, options: AiRequestOptions = {}): PassSteps<AiRequest[]> {
  const fromMs = options.fromMs ?? ctx.fromMs;
  const toMs = options.toMs ?? ctx.toMs;
  const out: AiRequest[] = [];
  if (ctx.scope.kind !== 'websites' || toMs < fromMs) return out;
  const fields = new Set(options.filterFields ?? []);
  const plan: FilterPlan = { ...ctx.filters, tests: ctx.filters.tests.filter((t) => fields.has(t.field)) };
  const paths = ctx.dictionaries.values.path;
  let unreported = 0;
  for (const website of ctx.scope.websites) {
    for (let day = Math.floor(fromMs / DAY_MS); day <= Math.floor(toMs / DAY_MS); day++) {
      // The requests of a day not kept are derived again, from its sessions generated again unless kept.
      const generated = ctx.traffic.generatedWork();
      const batch = ctx.traffic.derived(aiCrawlerRequests, website, day);
      unreported += (ctx.traffic.generatedWork() - generated) * GENERATED_RECORD_WORK;
      for (let k = 0; k < batch.count; k++) {
        const timeMs = batch.timeMs[k] as number;
        if (timeMs < fromMs || timeMs > toMs) continue;
        const agent = AI_AGENTS[batch.agent[k] as number] as AiAgent;
        const request: AiRequest = {
          timeMs,
          website,
          agentId: agent.id,
          agent,
          page: requestPath(batch.path[k] as number, paths),
          format: CONTENT_FORMATS[batch.format[k] as number] ?? 'html',
          status: batch.status[k] as number,
          source: REQUEST_SOURCES[batch.source[k] as number] ?? 'browser',
          weight: batch.weight,
        };
        if (plan.tests.length > 0 && !passesFilters(plan, (field) => (field === 'agent_id' ? request.agentId : field === 'path' ? request.page : ''))) continue;
        out.push(request);
      }
      for (const hit of ctx.ingested.onDay(AI_AGENT_HITS, website.id, day)) {
        if (hit.timestamp < fromMs || hit.timestamp > toMs) continue;
        const request: AiRequest = { timeMs: hit.timestamp, website, agentId: hit.agent.id, agent: hit.agent, page: hit.path, format: hit.format, status: 0, source: 'middleware', weight: 1 };
        if (plan.tests.length > 0 && !passesFilters(plan, (field) => (field === 'agent_id' ? request.agentId : field === 'path' ? request.page : ''))) continue;
        out.push(request);
      }
      unreported += batch.count * REQUEST_WORK;
      if (unreported >= YIELD_RECORDS) {
        yield unreported;
        unreported = 0;
      }
    }
  }
  if (unreported > 0) yield unreported;
  return out;
}

/** The first request a website's middleware sent to `POST /ai-traffic`, epoch ms; null when none has. */
function firstReceivedMs(ctx: RunContext, website: Website): number | null {
  const day = ctx.ingested.firstDay(AI_AGENT_HITS, website.id);
  if (day === null) return null;
  let first: number | null = null;
  for (const hit of ctx.ingested.onDay(AI_AGENT_HITS, website.id, day)) if (first === null || hit.timestamp < first) first = hit.timestamp;
  return first;
}

/**
 * The first server-side request of the scope's websites (all time, up to now), epoch ms: a
 * Vercel log drain's generated record or a request the site's middleware sent; null when none
 * has sent one.
 */
export function firstServerRequestMs(ctx: RunContext): number | null {
  if (ctx.scope.kind !== 'websites') return null;
  let first: number | null = null;
  for (const website of ctx.scope.websites) {
    const received = firstReceivedMs(ctx, website);
    if (received !== null && received <= ctx.now && (first === null || received < first)) first = received;
    const since = serverTrackingSince(ctx.traffic.seedHash, website);
    if (since === null || since > ctx.now) continue;
    const sinceDay = Math.floor(since / DAY_MS);
    const lastDay = Math.min(sinceDay + 30, Math.floor(ctx.now / DAY_MS));
    for (let day = sinceDay; day <= lastDay; day++) {
      const batch = ctx.traffic.derived(aiCrawlerRequests, website, day);
      let found = Number.POSITIVE_INFINITY;
      for (let k = 0; k < batch.count; k++) {
        const t = batch.timeMs[k] as number;
        if (batch.source[k] === 1 && t < found && t <= ctx.now) found = t;
      }
      if (found !== Number.POSITIVE_INFINITY) {
        if (first === null || found < first) first = found;
        break;
      }
    }
  }
  return first;
}

const NO_FILTERS: FilterPlan = { masks: new Map(), excludesAll: false, tests: [] };
const productTables = new WeakMap<readonly string[], readonly (string | null)[]>();

/** The AI product of each code of a dictionary of referrers or UTM sources (memoized per dictionary). */
function productTable(values: readonly string[]): readonly (string | null)[] {
  let table = productTables.get(values);
  if (!table) {
    table = values.map((v) => aiProductOfReferrer(v));
    productTables.set(values, table);
  }
  return table;
}

/** Called once per AI-referred session: the session, its AI product and its visitor across the scope. */
export type AiVisitVisitor = (batch: SessionBatch, index: number, product: string, visitorKey: number) => void;

/**
 * Visits every session of the scope within the range whose referrer (else its utm_source)
 * belongs to an AI product, ignoring the request's filters, in the order of {@link scanSessionsSteps};
 * in pieces: yields the session samples read ({@link PassSteps}).
 */
export function* scanAiVisitsSteps(ctx: RunContext, visit: AiVisitVisitor, fromMs = ctx.fromMs, toMs = ctx.toMs): PassSteps<void> {
  const byReferrer = productTable(ctx.dictionaries.values.referrer);
  const byUtmSource = productTable(ctx.dictionaries.values.utm_source);
  yield* scanSessionsSteps({ ...ctx, filters: NO_FILTERS }, (batch, i, _matched, visitorKey) => {
    const product = byReferrer[batch.dims.referrer[i] as number] ?? byUtmSource[batch.dims.utm_source[i] as number] ?? null;
    if (product !== null) visit(batch, i, product, visitorKey);
  }, fromMs, toMs);
}

/** Scans every session of the scope within the range, ignoring the request's filters; in pieces ({@link PassSteps}). */
export function* scanAllVisitsSteps(ctx: RunContext, visit: (batch: SessionBatch, index: number, visitorKey: number) => void): PassSteps<void> {
  yield* scanSessionsSteps({ ...ctx, filters: NO_FILTERS }, (batch, i, _matched, visitorKey) => visit(batch, i, visitorKey));
}
