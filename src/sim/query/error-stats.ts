import { ERROR_KINDS, errorDerivation, type ErrorBatch, type ErrorKind } from '../model/derived/errors.js';
import { createDistinct } from './aggregate.js';
import { scanActivity, type ActivityRecord } from './activity-scan.js';
import type { RunContext } from './definition.js';

/** One error occurrence as the errors types read it. */
export interface ErrorRecord extends ActivityRecord<ErrorBatch> {
  readonly kind: ErrorKind;
  readonly timeMs: number;
  readonly weight: number;
}

function errorField(batch: ErrorBatch, index: number, field: string): string {
  const kind = ERROR_KINDS[batch.kind[index] as number] as ErrorKind;
  if (field === 'message') return kind.message;
  if (field === 'error_type') return kind.type;
  return '';
}

/**
 * Visits every error of the scope in the range that passes the request's filters: message and
 * error_type act on the error, path on the error's page, the other fields on its session.
 */
export function scanErrors(ctx: RunContext, visit: (error: ErrorRecord) => void): void {
  scanActivity(ctx, errorDerivation, { apply: true, fieldValue: errorField }, (record) => {
    visit({
      ...record,
      kind: ERROR_KINDS[record.activity.kind[record.index] as number] as ErrorKind,
      timeMs: record.activity.timeMs[record.index] as number,
      weight: record.sessions.weight,
    });
  });
}

/** Errors of one group: occurrences, distinct visitors and sessions (weighted), and the latest time. */
export interface ErrorTally {
  count: number;
  users: number;
  sessions: number;
  lastSeenMs: number;
}

/**
 * Groups the filtered errors by `keyOf` (null skips the error). Counts are weighted: an error
 * sample stands for `weight` errors by `weight` visitors in `weight` sessions.
 */
export function tallyErrors<K>(ctx: RunContext, keyOf: (error: ErrorRecord) => K | null): Map<K, ErrorTally> {
  const groups = new Map<K, ErrorTally>();
  const indexes = new Map<K, number>();
  const isNewUser = createDistinct();
  const isNewSession = createDistinct();
  scanErrors(ctx, (error) => {
    const key = keyOf(error);
    if (key === null) return;
    let tally = groups.get(key);
    if (!tally) {
      tally = { count: 0, users: 0, sessions: 0, lastSeenMs: 0 };
      groups.set(key, tally);
      indexes.set(key, indexes.size);
    }
    const group = indexes.get(key) as number;
    tally.count += error.weight;
    if (isNewUser(group, error.visitorKey)) tally.users += error.weight;
    if (isNewSession(group, error.sessionKey)) tally.sessions += error.weight;
    if (error.timeMs > tally.lastSeenMs) tally.lastSeenMs = error.timeMs;
  });
  return groups;
}

/** `YYYY-MM-DD HH:MM:SS.mmm` in UTC (ClickHouse DateTime64(3) as JSON prints it). */
export function formatDateTime64(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
}

/** Orders by a count descending, then by name, so ties are stable. */
export function byCountThenName<T extends { name: string }>(count: (row: T) => number): (a: T, b: T) => number {
  return (a, b) => count(b) - count(a) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/**
 * Checks the one selector the impact builders need: exactly one scalar `eq` filter on message
 * or path. Throws as the builder does (the route masks it as "Query execution failed").
 */
export function assertOneSelector(ctx: RunContext, typeName: string): void {
  const selectors = ctx.filters.tests.filter((t) => t.field === 'message' || t.field === 'path');
  if (selectors.length === 0) throw new Error("Missing required filter: one of 'message', 'path'.");
  const [only] = selectors;
  if (selectors.length !== 1 || only?.op !== 'eq' || only.values.length !== 1) {
    throw new Error(`${typeName} requires exactly one scalar message or path equality filter`);
  }
}
