import { DAY_MS } from '../../model/world.js';
import type { CheckBatch, ClickBatch, SessionBatch } from '../../model/traffic.js';
import type { RunContext } from '../engine/definition.js';
import { GENERATED_RECORD_WORK, runToEnd, YIELD_RECORDS, type PassSteps } from '../engine/pass-steps.js';
import type { Website } from '../../model/entities.js';
import { ingestedSessions } from './ingested-sessions.js';

/** Visitor ids of one website fit below this; keys of other websites are offset by it (≤ 1024 websites). */
const VISITOR_SPACE = 4_194_304;

/**
 * Called once per session that passes the filters: `matchedPages` is the number of its pageviews
 * that pass the path filter (≥ 1), `visitorKey` identifies its visitor across the scope.
 */
export type SessionVisitor = (
  batch: SessionBatch,
  index: number,
  matchedPages: number,
  visitorKey: number,
) => void;

/** The columns a batch has for the filtered fields, paired with their masks. */
function filterColumns(dims: object, filterMasks: ReadonlyMap<string, Uint8Array>): [Uint16Array[], Uint8Array[]] {
  const codes: Uint16Array[] = [];
  const masks: Uint8Array[] = [];
  for (const [field, mask] of filterMasks) {
    const column = (dims as Record<string, Uint16Array | undefined>)[field];
    if (column) {
      codes.push(column);
      masks.push(mask);
    }
  }
  return [codes, masks];
}

/** The scope-wide key of visitor `visitor` of the scope's website number `siteIndex`, as scans hand it over. */
export function visitorKeyOf(siteIndex: number, visitor: number): number {
  return siteIndex * VISITOR_SPACE + visitor;
}

function dayRange(fromMs: number, toMs: number): [number, number] {
  return [Math.floor(fromMs / DAY_MS), Math.floor(toMs / DAY_MS)];
}

/** What {@link scanSessions} visits besides the generated sessions. */
export interface ScanOptions {
  /**
   * Also visit the sessions built from ingested page views (`ingested: true` batches, weight 1)
   * after each day's generated ones. Only for visitors that read nothing but the batch's own
   * columns: a derivation of the day (errors, revenue …) must not be read by their index.
   */
  readonly ingested?: boolean;
}

/**
 * Visits every session of the scope's websites that starts within [fromMs, toMs] and passes
 * the session-level filters and, when there is one, the path filter. Sessions are visited in
 * a fixed order (website, then day, generated before ingested, then time), so results are
 * deterministic.
 */
export function scanSessions(
  ctx: RunContext,
  visit: SessionVisitor,
  fromMs = ctx.fromMs,
  toMs = ctx.toMs,
  options: ScanOptions = {},
): void {
  runToEnd(scanSessionsSteps(ctx, visit, fromMs, toMs, options));
}

/** {@link scanSessions} in pieces: yields each website-day's session samples read ({@link PassSteps}). */
export function* scanSessionsSteps(
  ctx: RunContext,
  visit: SessionVisitor,
  fromMs = ctx.fromMs,
  toMs = ctx.toMs,
  options: ScanOptions = {},
): PassSteps<void> {
  if (ctx.scope.kind !== 'websites' || ctx.filters.excludesAll || toMs < fromMs) return;
  const pathMask = ctx.filters.masks.get('path') ?? null;
  const [firstDay, lastDay] = dayRange(fromMs, toMs);
  const scanBatch = (batch: SessionBatch, visitorBase: number, whole: boolean): void => {
    const [codes, masks] = filterColumns(batch.dims, ctx.filters.masks);
    const checks = codes.length;
    const { startMs, pageOffsets, pagePaths, visitor } = batch;
    sessions: for (let i = 0; i < batch.count; i++) {
      if (!whole) {
        const t = startMs[i] as number;
        if (t < fromMs || t > toMs) continue;
      }
      for (let c = 0; c < checks; c++) {
        if ((masks[c] as Uint8Array)[(codes[c] as Uint16Array)[i] as number] === 0) continue sessions;
      }
      const first = pageOffsets[i] as number;
      const end = pageOffsets[i + 1] as number;
      let matched = end - first;
      if (pathMask) {
        matched = 0;
        for (let p = first; p < end; p++) if (pathMask[pagePaths[p] as number] === 1) matched++;
        if (matched === 0) continue;
      }
      visit(batch, i, matched, visitorBase + (visitor[i] as number));
    }
  };
  const { websites } = ctx.scope;
  let unreported = 0;
  for (let siteIndex = 0; siteIndex < websites.length; siteIndex++) {
    const website = websites[siteIndex] as Website;
    const visitorBase = siteIndex * VISITOR_SPACE;
    for (let day = firstDay; day <= lastDay; day++) {
      const whole = day > firstDay && day < lastDay;
      // What the day's visitors derive (errors, details …) and the day itself, generated here, count as the cache counts them.
      const before = ctx.traffic.generatedWork();
      const batch = ctx.traffic.sessions(website, day);
      scanBatch(batch, visitorBase, whole);
      if (options.ingested) {
        const ingested = ingestedSessions(ctx.ingested, website, day);
        if (ingested) scanBatch(ingested, visitorBase, whole);
      }
      unreported += batch.count + (ctx.traffic.generatedWork() - before) * GENERATED_RECORD_WORK;
      if (unreported >= YIELD_RECORDS) {
        yield unreported;
        unreported = 0;
      }
    }
  }
  if (unreported > 0) yield unreported;
}

/**
 * Visits every click of the scope's link within the range that passes the filters, in pieces:
 * yields the clicks read, and what generating their days cost ({@link PassSteps}).
 */
export function* scanClicksSteps(ctx: RunContext, visit: (batch: ClickBatch, index: number) => void): PassSteps<void> {
  if (ctx.scope.kind !== 'link' || ctx.filters.excludesAll) return;
  const [firstDay, lastDay] = dayRange(ctx.fromMs, ctx.toMs);
  let unreported = 0;
  for (let day = firstDay; day <= lastDay; day++) {
    const before = ctx.traffic.generatedWork();
    const batch = ctx.traffic.clicks(ctx.scope.link, day);
    const [codes, masks] = filterColumns(batch.dims, ctx.filters.masks);
    clicks: for (let i = 0; i < batch.count; i++) {
      const t = batch.timeMs[i] as number;
      if (t < ctx.fromMs || t > ctx.toMs) continue;
      for (let c = 0; c < codes.length; c++) {
        if ((masks[c] as Uint8Array)[(codes[c] as Uint16Array)[i] as number] === 0) continue clicks;
      }
      visit(batch, i);
    }
    unreported += batch.count + (ctx.traffic.generatedWork() - before) * GENERATED_RECORD_WORK;
    if (unreported >= YIELD_RECORDS) {
      yield unreported;
      unreported = 0;
    }
  }
  if (unreported > 0) yield unreported;
}

/**
 * Visits every check of the scope's monitor within [fromMs, toMs] that passes the filters, in
 * pieces: yields the checks read, and what generating their days cost ({@link PassSteps}).
 */
export function* scanChecksSteps(
  ctx: RunContext,
  visit: (batch: CheckBatch, index: number) => void,
  fromMs = ctx.fromMs,
  toMs = ctx.toMs,
): PassSteps<void> {
  if (ctx.scope.kind !== 'monitor' || ctx.filters.excludesAll) return;
  const regionMask = ctx.filters.masks.get('probe_region') ?? null;
  const [firstDay, lastDay] = dayRange(fromMs, toMs);
  let unreported = 0;
  for (let day = firstDay; day <= lastDay; day++) {
    const before = ctx.traffic.generatedWork();
    const batch = ctx.traffic.checks(ctx.scope.monitor, day);
    for (let i = 0; i < batch.count; i++) {
      const t = batch.timeMs[i] as number;
      if (t < fromMs || t > toMs) continue;
      if (regionMask && regionMask[batch.region[i] as number] === 0) continue;
      visit(batch, i);
    }
    unreported += batch.count + (ctx.traffic.generatedWork() - before) * GENERATED_RECORD_WORK;
    if (unreported >= YIELD_RECORDS) {
      yield unreported;
      unreported = 0;
    }
  }
  if (unreported > 0) yield unreported;
}
