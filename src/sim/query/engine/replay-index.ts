import type { Filter } from '../../../contract/query-request.js';
import { parseRecording, type Recording, type RecordedScope, type RecordingEntry } from '../../../contract/recording.js';
import { DAY_MS } from '../../model/world.js';
import { suggest } from '../../text.js';
import { findQueryType, QUERY_TYPE_NAMES } from '../registry.js';
import { canonicalTimeZone, parseDateInput, type TimeUnit } from './dates.js';
import type { QueryScope } from './definition.js';
import type { RecordedAnswer, ReplayIndex } from './replay-lookup.js';

/** A recording that cannot be replayed; the message names the entry (index and path) and the fix. */
export class RecordingRefused extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`recording refused: ${problems.join('; ')}`);
  }
}

/** The scope as the index keys it: how the query string named the resource. */
function scopeOfQuery(scope: QueryScope): string {
  switch (scope.kind) {
    case 'websites':
      if (scope.organizationId !== undefined) return `organization_id:${scope.organizationId}`;
      return scope.websites.length === 1 ? `website_id:${scope.websites[0]?.id}` : `websites:${scope.websites.map((w) => w.id).join(',')}`;
    case 'link':
      return `link_id:${scope.link.id}`;
    case 'monitor':
      return `schedule_id:${scope.monitor.id}`;
  }
}

function scopeOfEntry(scope: RecordedScope): string {
  const [name, value] = Object.entries(scope).find(([, v]) => v !== undefined) as [string, string];
  return `${name}:${value}`;
}

/** A filter list as text, key order fixed. */
function filtersText(filters: readonly Filter[]): string {
  return JSON.stringify(filters.map((f) => [f.field, f.op, f.value]));
}

/** Everything that decides a parameter's rows, as one key. */
function keyOf(parts: {
  type: string;
  scope: string;
  fromMs: number;
  toMs: number;
  unit: TimeUnit;
  timezone: string;
  filters: readonly Filter[];
  limit: number | undefined;
  page: number;
  sortBy: string | undefined;
  sortOrder: string | undefined;
}): string {
  const order = parts.sortBy !== undefined && parts.sortOrder !== undefined ? `${parts.sortBy}:${parts.sortOrder}` : '';
  return [parts.type, parts.scope, parts.fromMs, parts.toMs, parts.unit, parts.timezone, filtersText(parts.filters), parts.limit ?? '', parts.page, order].join('|');
}

/** The range of an entry as a query plans it (`planQuery`'s rule: a `YYYY-MM-DD` end is the end of that day). */
function rangeOf(entry: RecordingEntry, at: (field: string) => string, problems: string[]): { fromMs: number; toMs: number } | null {
  const from = parseDateInput(entry.startDate);
  const to = parseDateInput(entry.endDate);
  if (!from) problems.push(`${at('startDate')}: ${entry.startDate} is not a real date`);
  if (!to) problems.push(`${at('endDate')}: ${entry.endDate} is not a real date`);
  if (!from || !to) return null;
  const range = { fromMs: from.ms, toMs: to.dateOnly ? to.ms + DAY_MS - 1 : to.ms };
  if (range.fromMs > range.toMs) {
    problems.push(`${at('startDate')}: ${entry.startDate} is after endDate ${entry.endDate}`);
    return null;
  }
  return range;
}

/** Built indexes by the recording object they were built from (a recording is checked once, however often it is given). */
const built = new WeakMap<object, ReplayIndex>();

/**
 * Checks a parsed recording file (`recordingSchema`, then what only the core knows: each type
 * exists, each date is real, no two entries ask the same parameter) and indexes it. Throws
 * {@link RecordingRefused} naming every problem's entry (at most ten), so nothing starts half-built.
 */
export function createReplayIndex(input: unknown): ReplayIndex {
  if (input !== null && typeof input === 'object') {
    const known = built.get(input);
    if (known) return known;
  }
  const parsed = parseRecording(input);
  if (!parsed.ok) throw new RecordingRefused(parsed.problems);
  const index = indexRecording(parsed.recording);
  if (input !== null && typeof input === 'object') built.set(input, index);
  return index;
}

function indexRecording(recording: Recording): ReplayIndex {
  const problems: string[] = [];
  const answers = new Map<string, RecordedAnswer>();
  recording.entries.forEach((entry, i) => {
    if (problems.length >= 10) return;
    const at = (field?: string): string => `entry ${i} (entries[${i}]${field ? `.${field}` : ''})`;
    const type = findQueryType(entry.type);
    if (!type) {
      const near = suggest(entry.type, QUERY_TYPE_NAMES);
      problems.push(`${at('type')}: unknown query type ${entry.type.slice(0, 64)}${near ? `; did you mean ${near}?` : ''}`);
      return;
    }
    const timezone = canonicalTimeZone(entry.timezone);
    if (timezone === null) {
      problems.push(`${at('timezone')}: ${entry.timezone.slice(0, 64)} is not an IANA time zone`);
      return;
    }
    const range = rangeOf(entry, at, problems);
    if (!range) return;
    const key = keyOf({
      type: type.name,
      scope: scopeOfEntry(entry.scope),
      ...range,
      unit: entry.granularity === 'hourly' ? 'hour' : 'day',
      timezone,
      filters: entry.filters,
      limit: entry.limit,
      page: entry.page,
      sortBy: entry.sortBy,
      sortOrder: entry.sortOrder,
    });
    const earlier = answers.get(key);
    if (earlier) {
      problems.push(`${at()}: asks the same parameter as entry ${earlier.entry} (type, scope, range, time zone, filters, paging); keep one of them`);
      return;
    }
    answers.set(key, { entry: i, rowsJson: JSON.stringify(entry.rows) });
  });
  if (problems.length > 0) throw new RecordingRefused(problems);
  const source = `${recording.target} at ${recording.recordedAt}`;
  return {
    size: answers.size,
    source,
    fingerprint: `${source}|${answers.size}|${recording.complete}`,
    find(ask) {
      if (answers.size === 0) return undefined;
      // A parameter planning replaced (one that fails at execution) is never a recorded one.
      if (findQueryType(ask.type.name) !== ask.type) return undefined;
      return answers.get(keyOf({ ...ask, type: ask.type.name, scope: scopeOfQuery(ask.scope) }));
    },
  };
}
