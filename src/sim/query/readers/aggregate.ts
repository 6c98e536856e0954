import { selectRanks } from './select-rank.js';
import type { SessionBatch } from '../../model/traffic.js';
import type { RunContext } from '../engine/definition.js';
import { createPairSet } from './pair-set.js';
import { scanSessions } from './scan.js';

/** Totals of one group of sessions. Counts are already multiplied by sample weights. */
export interface TrafficStats {
  pageviews: number;
  sessions: number;
  visitors: number;
  /** Sessions with a single pageview. */
  bounces: number;
  /** Sum of session durations in seconds, weighted. */
  durationTotal: number;
  /** Durations (s) of the non-bounce samples, unweighted (weights are constant per website). */
  readonly durations: number[];
  /** Custom events emitted by the group's sessions, weighted. */
  events: number;
}

function emptyStats(): TrafficStats {
  return { pageviews: 0, sessions: 0, visitors: 0, bounces: 0, durationTotal: 0, durations: [], events: 0 };
}

/**
 * Tracks distinct (group, key) pairs: returns true the first time a pair is seen. Groups are
 * small integers; keys are below 2^32 (visitor keys, session serials).
 */
export function createDistinct(): (groupIndex: number, key: number) => boolean {
  const pairs = createPairSet(4096);
  return (groupIndex, key) => pairs.add(groupIndex, key);
}

/** A distinct counter for groups that arrive in runs, and whether that held. */
export interface RunDistinct {
  /** True the first time `key` is seen in the current run of `groupIndex`. */
  isNew(groupIndex: number, key: number): boolean;
  /** True when a group came back after another one: the counts are then wrong, count again with {@link createDistinct}. */
  readonly revisited: boolean;
}

/**
 * Tracks distinct (group, key) pairs for groups whose pairs arrive contiguously (the time
 * buckets of one website's sessions, visited in time order): only the current group's keys are
 * kept, so memory follows one group, not the whole range. A group seen again after another
 * one sets `revisited`.
 */
export function createRunDistinct(): RunDistinct {
  let current = Number.NaN;
  let pairs = createPairSet(1024);
  const finished = new Set<number>();
  let revisited = false;
  return {
    isNew(groupIndex, key) {
      if (groupIndex !== current) {
        if (!Number.isNaN(current)) finished.add(current);
        if (finished.has(groupIndex)) revisited = true;
        current = groupIndex;
        pairs = createPairSet(1024);
      }
      return pairs.add(0, key);
    },
    get revisited() {
      return revisited;
    },
  };
}

/**
 * Groups the filtered sessions by `keyOf` (a session-level value: a dimension code, a time
 * bucket). A session counts in exactly one group, so group pageviews and sessions add up to
 * the totals.
 */
export function groupSessions<K>(
  ctx: RunContext,
  keyOf: (batch: SessionBatch, index: number) => K,
  options: { durations?: boolean } = {},
): Map<K, TrafficStats> {
  const groups = new Map<K, TrafficStats>();
  const indexes = new Map<K, number>();
  const isNew = createDistinct();
  scanSessions(ctx, (batch, i, matched, visitorKey) => {
    const key = keyOf(batch, i);
    let stats = groups.get(key);
    if (!stats) {
      stats = emptyStats();
      groups.set(key, stats);
      indexes.set(key, indexes.size);
    }
    const w = batch.weight;
    const pages = (batch.pageOffsets[i + 1] as number) - (batch.pageOffsets[i] as number);
    stats.pageviews += matched * w;
    stats.sessions += w;
    if (pages === 1) stats.bounces += w;
    const duration = batch.durationS[i] as number;
    stats.durationTotal += duration * w;
    if (options.durations && duration > 0) stats.durations.push(duration);
    stats.events += ((batch.eventOffsets[i + 1] as number) - (batch.eventOffsets[i] as number)) * w;
    if (isNew(indexes.get(key) as number, visitorKey)) stats.visitors += w;
  });
  return groups;
}

/** Totals of every filtered session, as one group. */
export function totalSessions(ctx: RunContext, options: { durations?: boolean } = {}): TrafficStats {
  return groupSessions(ctx, () => 0, options).get(0) ?? emptyStats();
}

/** Per-path totals of pageviews. */
export interface PageStats {
  pageviews: number;
  sessions: number;
  visitors: number;
  /** Seconds on page of each view that was not the session's last, unweighted. */
  readonly times: number[];
}

/**
 * Groups pageviews by path. `all` counts every view that passes the path filter; `entry` and
 * `exit` count only a session's first or last view (one per session).
 */
export function groupPages(
  ctx: RunContext,
  mode: 'all' | 'entry' | 'exit',
  options: { times?: boolean } = {},
): Map<number, PageStats> {
  const pathMask = ctx.filters.masks.get('path') ?? null;
  const groups = new Map<number, PageStats>();
  const isNew = createDistinct();
  const isNewSession = createDistinct();
  let sessionSerial = 0;
  scanSessions(ctx, (batch, i, _matched, visitorKey) => {
    const w = batch.weight;
    const first = batch.pageOffsets[i] as number;
    const end = batch.pageOffsets[i + 1] as number;
    const from = mode === 'exit' ? end - 1 : first;
    const to = mode === 'entry' ? first + 1 : end;
    sessionSerial++;
    for (let p = from; p < to; p++) {
      const path = batch.pagePaths[p] as number;
      if (pathMask && pathMask[path] === 0) continue;
      let stats = groups.get(path);
      if (!stats) {
        stats = { pageviews: 0, sessions: 0, visitors: 0, times: [] };
        groups.set(path, stats);
      }
      stats.pageviews += w;
      if (isNewSession(path, sessionSerial)) stats.sessions += w;
      if (isNew(path, visitorKey)) stats.visitors += w;
      if (options.times && p < end - 1) stats.times.push(batch.pageTimeS[p] as number);
    }
  });
  return groups;
}

/** Rounds to two decimals, the precision of rates and percentages in rows. */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** `part` as a percentage of `whole`, two decimals; 0 when `whole` is 0. */
export function percentage(part: number, whole: number): number {
  return whole > 0 ? round2((part / whole) * 100) : 0;
}

/** Bounce rate of a group in percent, or null when it has no sessions (as the service's nullIf). */
export function bounceRate(stats: Pick<TrafficStats, 'bounces' | 'sessions'>): number | null {
  return stats.sessions > 0 ? round2((stats.bounces / stats.sessions) * 100) : null;
}

/** The median of a list of numbers; 0 for an empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : round2(((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2);
}

/** The p-th percentile (0–100) of a list of numbers, nearest rank; 0 for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  return percentiles(values, [p])[0] as number;
}

/**
 * The percentiles `ps` (0–100) of a list of numbers, nearest rank, as {@link percentile} gives
 * each; 0 for an empty list. One copy, its ranks selected, not sorted: linear on average.
 */
export function percentiles(values: readonly number[], ps: readonly number[]): number[] {
  if (values.length === 0) return ps.map(() => 0);
  const ordered = Float64Array.from(values);
  const ranks = ps.map((p) => Math.min(ordered.length - 1, Math.max(0, Math.ceil((p / 100) * ordered.length) - 1)));
  selectRanks(ordered, ranks);
  return ranks.map((rank) => ordered[rank] as number);
}

/**
 * Orders breakdown rows as the service does: visitors descending, then pageviews descending,
 * then by name so that ties are deterministic.
 */
export function byVisitors<T extends { visitors: number; pageviews: number; name: string }>(a: T, b: T): number {
  return b.visitors - a.visitors || b.pageviews - a.pageviews || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
