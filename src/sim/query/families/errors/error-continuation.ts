import { pageviewStartsMs } from '../../../model/derived/pageview-times.js';
import { mix } from '../../../model/hash.js';
import type { SessionBatch } from '../../../model/traffic.js';
import { DAY_MS } from '../../../model/world.js';
import type { Row, RunContext } from '../../engine/definition.js';
import { GENERATED_RECORD_WORK, YIELD_RECORDS, type PassSteps } from '../../engine/pass-steps.js';
import { assertOneSelector, scanErrors } from './error-stats.js';

/** How long after a screen_view an error still counts as exposure on that route. */
const EXPOSURE_MS = 30_000;
/** The window in which a different screen_view means the visitor continued. */
const CONTINUATION_MS = 600_000;

/**
 * What reading a control day's session sample counts for, in records read: its key, its
 * pageviews' start times and, for a candidate, its stratum and rank (measured: about 12 scanned
 * sessions' worth).
 */
const CONTROL_SESSION_WORK = 12;

/** A candidate session: where it is compared, when its outcome starts, whether it continued. */
interface Candidate {
  readonly stratum: string;
  readonly rank: number;
  readonly continued: boolean;
  /** Real sessions the sample stands for. */
  readonly weight: number;
}

function sessionKey(siteIndex: number, batch: SessionBatch, index: number): string {
  return `${siteIndex}:${batch.day}:${index}`;
}

/** Whether the session has a screen_view on another route within the window after `atMs`. */
function continuedAfter(batch: SessionBatch, index: number, route: number, atMs: number): boolean {
  const starts = pageviewStartsMs(batch, index);
  const first = batch.pageOffsets[index] as number;
  return starts.some((t, n) => t > atMs && t <= atMs + CONTINUATION_MS && batch.pagePaths[first + n] !== route);
}

function stratumOf(ctx: RunContext, siteIndex: number, batch: SessionBatch, index: number, route: number, atMs: number): string {
  const { values } = ctx.dictionaries;
  const device = (values.device_type[batch.dims.device_type[index] as number] || 'unknown').toLowerCase();
  const browser = (values.browser_name[batch.dims.browser_name[index] as number] || 'unknown').toLowerCase();
  return `${siteIndex}|${route}|${Math.floor(atMs / DAY_MS)}|${device}|${browser}`;
}

/**
 * Pairs exposed and control sessions within each stratum, by hash rank, up to the smaller side;
 * in pieces, yielding the candidates it groups and the comparisons of each stratum's sort
 * ({@link PassSteps}).
 */
function* pair(exposed: readonly Candidate[], control: readonly Candidate[]): PassSteps<{ exposed: Candidate[]; control: Candidate[] }> {
  function* group(list: readonly Candidate[]): PassSteps<Map<string, Candidate[]>> {
    const out = new Map<string, Candidate[]>();
    let unreported = 0;
    for (const c of list) {
      const bucket = out.get(c.stratum) ?? [];
      bucket.push(c);
      out.set(c.stratum, bucket);
      if (++unreported >= YIELD_RECORDS) {
        yield unreported;
        unreported = 0;
      }
    }
    for (const bucket of out.values()) {
      bucket.sort((a, b) => a.rank - b.rank);
      // About n log n comparisons.
      unreported += bucket.length * Math.max(1, Math.ceil(Math.log2(bucket.length)));
      if (unreported >= YIELD_RECORDS) {
        yield unreported;
        unreported = 0;
      }
    }
    if (unreported > 0) yield unreported;
    return out;
  }
  const exposedBy = yield* group(exposed);
  const controlBy = yield* group(control);
  const matched = { exposed: [] as Candidate[], control: [] as Candidate[] };
  for (const [stratum, ex] of exposedBy) {
    const co = controlBy.get(stratum) ?? [];
    const n = Math.min(ex.length, co.length);
    matched.exposed.push(...ex.slice(0, n));
    matched.control.push(...co.slice(0, n));
  }
  return matched;
}

function percent1(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}

/**
 * error_route_continuation_comparison: sessions exposed to one exact error (a message or a
 * route) against same-route sessions without it, matched by route, UTC day, device and browser,
 * and the share of each that went on to another screen within ten minutes. Errors posted to
 * `POST /errors` are left out: they belong to no generated screen view. In pieces
 * ({@link PassSteps}): the errors, then the control days' session samples it reads.
 */
export function* continuationComparisonRow(ctx: RunContext): PassSteps<Row> {
  assertOneSelector(ctx, 'error_route_continuation_comparison');
  if (ctx.scope.kind !== 'websites') throw new Error('error_route_continuation_comparison needs a website');
  const cutoff = ctx.toMs - CONTINUATION_MS;
  const siteOf = new Map(ctx.scope.websites.map((w, i) => [w.id, i]));
  const errorSessions = new Set<string>();
  const routes = new Set<number>();
  const exposure = new Map<string, { batch: SessionBatch; index: number; site: number; route: number; atMs: number }>();
  yield* scanErrors(ctx, (e) => {
    // An ingested error has no screen view of its own in the generated sessions to compare.
    if (e.source.kind !== 'generated') return;
    const { sessions, sample, activity, index } = e.source;
    const site = siteOf.get(e.website.id) as number;
    const key = sessionKey(site, sessions, sample);
    errorSessions.add(key);
    const route = activity.path[index] as number;
    routes.add(route);
    if (e.timeMs > cutoff) return;
    const pv = activity.pageview[index] as number;
    const viewStart = pageviewStartsMs(sessions, sample)[pv - (sessions.pageOffsets[sample] as number)] as number;
    if (viewStart < ctx.fromMs || e.timeMs - viewStart > EXPOSURE_MS) return;
    const known = exposure.get(key);
    if (!known || e.timeMs < known.atMs) exposure.set(key, { batch: sessions, index: sample, site, route, atMs: e.timeMs });
  });
  const rankOf = (batch: SessionBatch, index: number, site: number): number => mix(ctx.traffic.seedHash, site, batch.day, index, 0xc0);
  const exposed: Candidate[] = [];
  let unreported = 0;
  for (const x of exposure.values()) {
    exposed.push({
      stratum: stratumOf(ctx, x.site, x.batch, x.index, x.route, x.atMs),
      rank: rankOf(x.batch, x.index, x.site),
      continued: continuedAfter(x.batch, x.index, x.route, x.atMs),
      weight: x.batch.weight,
    });
    if (++unreported >= YIELD_RECORDS) {
      yield unreported;
      unreported = 0;
    }
  }
  const control: Candidate[] = [];
  if (routes.size > 0) {
    const { websites } = ctx.scope;
    for (let site = 0; site < websites.length; site++) {
      const website = websites[site] as (typeof websites)[number];
      for (let day = Math.floor(ctx.fromMs / DAY_MS) - 1; day <= Math.floor(cutoff / DAY_MS); day++) {
        const generated = !ctx.traffic.hasSessions(website, day);
        const batch = ctx.traffic.sessions(website, day);
        for (let i = 0; i < batch.count; i++) {
          if (errorSessions.has(sessionKey(site, batch, i))) continue;
          const starts = pageviewStartsMs(batch, i);
          const first = batch.pageOffsets[i] as number;
          const n = starts.findIndex((t, k) => t >= ctx.fromMs && t <= cutoff && routes.has(batch.pagePaths[first + k] as number));
          if (n < 0) continue;
          const route = batch.pagePaths[first + n] as number;
          const atMs = starts[n] as number;
          control.push({ stratum: stratumOf(ctx, site, batch, i, route, atMs), rank: rankOf(batch, i, site), continued: continuedAfter(batch, i, route, atMs), weight: batch.weight });
        }
        unreported += batch.count * ((generated ? GENERATED_RECORD_WORK : 0) + CONTROL_SESSION_WORK);
        if (unreported >= YIELD_RECORDS) {
          yield unreported;
          unreported = 0;
        }
      }
    }
  }
  if (unreported > 0) yield unreported;
  const matched = yield* pair(exposed, control);
  const total = (list: readonly Candidate[]): number => list.reduce((sum, c) => sum + c.weight, 0);
  const continued = (list: readonly Candidate[]): Candidate[] => list.filter((c) => c.continued);
  const [candidateExposed, candidateControl] = [total(exposed), total(control)];
  const [matchedExposed, matchedControl] = [total(matched.exposed), total(matched.control)];
  const exposedContinued = total(continued(matched.exposed));
  const controlContinued = total(continued(matched.control));
  return {
    candidate_exposed_sessions: candidateExposed,
    candidate_control_sessions: candidateControl,
    matched_exposed_sessions: matchedExposed,
    matched_control_sessions: matchedControl,
    unmatched_exposed_sessions: candidateExposed - matchedExposed,
    unmatched_control_sessions: candidateControl - matchedControl,
    exposed_continued_sessions: exposedContinued,
    control_continued_sessions: controlContinued,
    exposed_continuation_percent: percent1(exposedContinued, matchedExposed),
    control_continuation_percent: percent1(controlContinued, matchedControl),
  };
}
