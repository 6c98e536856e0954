import { ERROR_SPANS, type ErrorSpanRecord } from '../../../ingest/span-kinds.js';
import { errorDerivation, errorKindsOf, type ErrorBatch, type ErrorKind } from '../../../model/derived/errors.js';
import type { Website } from '../../../model/entities.js';
import type { SessionBatch } from '../../../model/traffic.js';
import { createDistinct } from '../../readers/aggregate.js';
import { scanActivitySteps, scanIngested } from '../../readers/activity-scan.js';
import type { RunContext } from '../../engine/definition.js';
import { withExtraWork, type PassSteps } from '../../engine/pass-steps.js';

/** A generated error: a sample of a day's derived errors, with its session. */
export interface GeneratedErrorSource {
  readonly kind: 'generated';
  readonly sessions: SessionBatch;
  /** The session sample index in `sessions`. */
  readonly sample: number;
  readonly activity: ErrorBatch;
  /** Index of the error in `activity`. */
  readonly index: number;
  readonly error: ErrorKind;
}

/** An error posted to `POST /errors`. */
export interface IngestedErrorSource {
  readonly kind: 'ingested';
  readonly span: ErrorSpanRecord;
}

/**
 * One error occurrence as the errors types read it, generated or ingested: what every type
 * groups by, and its source for the types that show more (context, stack, sessions).
 */
export interface ErrorRecord {
  readonly website: Website;
  readonly message: string;
  /** The error class (`error_type`). */
  readonly type: string;
  /** The page, as stored ('' when none). */
  readonly path: string;
  readonly timeMs: number;
  /** Real errors the record stands for: the session batch's weight, 1 for an ingested error. */
  readonly weight: number;
  /** The visitor, unique across the scope's websites (and apart from generated visitors for ingested errors). */
  readonly visitorKey: number;
  /** The session, unique within one scan. */
  readonly sessionKey: number;
  /** A tie-break after the session: the index in the day's errors, or the ingested error's place in the scan. */
  readonly order: number;
  readonly source: GeneratedErrorSource | IngestedErrorSource;
}

/**
 * The error kinds of a website, remembered for the website read last (a scan reads a website's
 * days one after another, so a world's table is asked once a batch, not once an error).
 */
function createKindReader(ctx: RunContext): (websiteId: string) => readonly ErrorKind[] {
  let lastId: string | undefined;
  let last: readonly ErrorKind[] = [];
  return (websiteId) => {
    if (websiteId !== lastId) {
      last = errorKindsOf(ctx.dictionaries, websiteId);
      lastId = websiteId;
    }
    return last;
  };
}

function spanField(span: ErrorSpanRecord, field: string): string {
  if (field === 'message') return span.message;
  if (field === 'error_type') return span.errorType;
  return '';
}

/**
 * Visits every error of the scope in the range that passes the request's filters: message and
 * error_type act on the error, path on the error's page, the other fields on its session. The
 * generated errors come first, then those posted to `POST /errors` (weight 1, filtered on their
 * own fields; those without a message are left out, as the builders' `message != ''`). In pieces:
 * yields the generated errors read, a day's errors derived again counting more ({@link PassSteps}).
 */
export function* scanErrors(ctx: RunContext, visit: (error: ErrorRecord) => void): PassSteps<void> {
  const paths = ctx.dictionaries.values.path;
  const kindsOf = createKindReader(ctx);
  const errorField = (batch: ErrorBatch, index: number, field: string): string => {
    const kind = kindsOf(batch.websiteId)[batch.kind[index] as number] as ErrorKind;
    if (field === 'message') return kind.message;
    if (field === 'error_type') return kind.type;
    return '';
  };
  yield* scanActivitySteps(ctx, errorDerivation, { apply: true, fieldValue: errorField }, (record) => {
    const error = kindsOf(record.website.id)[record.activity.kind[record.index] as number] as ErrorKind;
    visit({
      website: record.website,
      message: error.message,
      type: error.type,
      path: paths[record.activity.path[record.index] as number] ?? '',
      timeMs: record.activity.timeMs[record.index] as number,
      weight: record.sessions.weight,
      visitorKey: record.visitorKey,
      sessionKey: record.sessionKey,
      order: record.index,
      source: { kind: 'generated', sessions: record.sessions, sample: record.sample, activity: record.activity, index: record.index, error },
    });
  });
  scanIngested(ctx, ERROR_SPANS, { apply: true, fieldValue: spanField }, ({ website, record, visitorKey, sessionKey, serial }) => {
    if (record.message === '') return;
    visit({
      website,
      message: record.message,
      type: record.errorType,
      path: record.path,
      timeMs: record.timestamp,
      weight: 1,
      visitorKey,
      sessionKey,
      order: serial,
      source: { kind: 'ingested', span: record },
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
export function* tallyErrors<K>(ctx: RunContext, keyOf: (error: ErrorRecord) => K | null): PassSteps<Map<K, ErrorTally>> {
  return (yield* tallyErrorsBy(ctx, [keyOf]))[0] as Map<K, ErrorTally>;
}

/**
 * {@link tallyErrors} by each of `keyOfs` in one scan: result `d` holds the groups of `keyOfs[d]`.
 * Each group an error enters counts as a record read, besides the error itself ({@link PassSteps}).
 */
export function* tallyErrorsBy<K>(ctx: RunContext, keyOfs: readonly ((error: ErrorRecord) => K | null)[]): PassSteps<Map<K, ErrorTally>[]> {
  const groups = keyOfs.map(() => new Map<K, ErrorTally>());
  const indexes = keyOfs.map(() => new Map<K, number>());
  let nextIndex = 0;
  const isNewUser = createDistinct();
  const isNewSession = createDistinct();
  let tallied = 0;
  const scan = scanErrors(ctx, (error) => {
    keyOfs.forEach((keyOf, d) => {
      const key = keyOf(error);
      if (key === null) return;
      tallied++;
      const byKey = groups[d] as Map<K, ErrorTally>;
      const indexOf = indexes[d] as Map<K, number>;
      let tally = byKey.get(key);
      if (!tally) {
        tally = { count: 0, users: 0, sessions: 0, lastSeenMs: 0 };
        byKey.set(key, tally);
        indexOf.set(key, nextIndex++);
      }
      const group = indexOf.get(key) as number;
      tally.count += error.weight;
      if (isNewUser(group, error.visitorKey)) tally.users += error.weight;
      if (isNewSession(group, error.sessionKey)) tally.sessions += error.weight;
      if (error.timeMs > tally.lastSeenMs) tally.lastSeenMs = error.timeMs;
    });
  });
  yield* withExtraWork(scan, () => {
    const work = tallied;
    tallied = 0;
    return work;
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
