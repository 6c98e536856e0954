import type { IngestKind } from '../../ingest/ingest-ledger.js';
import type { SpanRecord } from '../../ingest/span-kinds.js';
import type { Website } from '../../model/entities.js';
import type { SessionBatch } from '../../model/traffic.js';
import { DAY_MS } from '../../model/world.js';
import type { Derivation } from '../../traffic-cache.js';
import type { RunContext } from '../engine/definition.js';
import { passesFilters } from '../engine/filters.js';
import { GENERATED_RECORD_WORK, YIELD_RECORDS, type PassSteps } from '../engine/pass-steps.js';
import { createFieldReader, type FieldReaders } from './record-filters.js';

/** Visitor ids of one website fit below this; keys of other websites are offset by it. */
const VISITOR_SPACE = 4_194_304;

/** The columns every per-session derived activity has (errors, vitals …). */
export interface DayActivity {
  readonly count: number;
  /** Session sample index of each record. */
  readonly sample: Uint32Array;
  /** Path code of each record. */
  readonly path: Uint16Array;
  /** Record time, epoch ms. */
  readonly timeMs: Float64Array;
}

/** One record of derived activity with its session, as {@link scanActivitySteps} visits it. */
export interface ActivityRecord<T extends DayActivity> {
  website: Website;
  sessions: SessionBatch;
  activity: T;
  /** Index of the record in `activity`. */
  index: number;
  /** The record's session sample index in `sessions`. */
  sample: number;
  /** The session's visitor, unique across the scope's websites. */
  visitorKey: number;
  /** The session, unique within one scan. */
  sessionKey: number;
}

/** How {@link scanActivitySteps} applies the request's filters. */
export interface ActivityFilterOptions<T extends DayActivity> {
  /**
   * False for builders that never apply filters. True: dictionary filters act on the session's
   * dimensions, a path filter on the record's own path, and filters on other fields through
   * `fieldValue` (fields it does not know hold '').
   */
  readonly apply: boolean;
  /** The record's value of a non-dictionary filter field (message, error_type …). */
  readonly fieldValue?: (activity: T, index: number, field: string) => string;
}

/**
 * Visits every record of `derivation` on the scope's websites whose time is within
 * [ctx.fromMs, ctx.toMs], in a fixed order (website, day, session, record). Sessions that start
 * the day before the range are read too, for records that fall after midnight. Cost grows with
 * the days and samples scanned, never with weights. `visit` gets one record object, updated in
 * place for each record: copy what must outlive the call.
 * In pieces: yields each website-day's records read ({@link PassSteps}).
 */
export function* scanActivitySteps<T extends DayActivity>(
  ctx: RunContext,
  derivation: Derivation<T>,
  filters: ActivityFilterOptions<T>,
  visit: (record: ActivityRecord<T>) => void,
): PassSteps<void> {
  if (ctx.scope.kind !== 'websites' || ctx.toMs < ctx.fromMs) return;
  const dictionaryFields = ctx.dictionaries.values as Readonly<Record<string, unknown>>;
  const masks = filters.apply ? [...ctx.filters.masks].filter(([field]) => field !== 'path') : [];
  const pathMask = filters.apply ? (ctx.filters.masks.get('path') ?? null) : null;
  const otherPlan = { ...ctx.filters, tests: filters.apply ? ctx.filters.tests.filter((t) => !(t.field in dictionaryFields)) : [] };
  const fieldValue = filters.fieldValue;
  const firstDay = Math.floor(ctx.fromMs / DAY_MS) - 1;
  const lastDay = Math.floor(ctx.toMs / DAY_MS);
  let sessionBase = 0;
  let record: ActivityRecord<T> | null = null;
  const { websites } = ctx.scope;
  let unreported = 0;
  for (let siteIndex = 0; siteIndex < websites.length; siteIndex++) {
    const website = websites[siteIndex] as Website;
    for (let day = firstDay; day <= lastDay; day++) {
      // The day's records and what its visitors derive, generated here, count as the cache counts them.
      const before = ctx.traffic.generatedWork();
      const sessions = ctx.traffic.sessions(website, day);
      const activity = ctx.traffic.derived(derivation, website, day);
      record ??= { website, sessions, activity, index: 0, sample: 0, visitorKey: 0, sessionKey: 0 };
      record.website = website;
      record.sessions = sessions;
      record.activity = activity;
      const columns = masks
        .map(([field, mask]) => [(sessions.dims as Readonly<Record<string, Uint16Array>>)[field], mask] as const)
        .filter((pair): pair is readonly [Uint16Array, Uint8Array] => pair[0] !== undefined);
      records: for (let k = 0; k < activity.count; k++) {
        const t = activity.timeMs[k] as number;
        if (t < ctx.fromMs || t > ctx.toMs) continue;
        const sample = activity.sample[k] as number;
        for (const [codes, mask] of columns) if (mask[codes[sample] as number] === 0) continue records;
        if (pathMask && pathMask[activity.path[k] as number] === 0) continue;
        if (otherPlan.tests.length > 0 && !passesFilters(otherPlan, (field) => fieldValue?.(activity, k, field) ?? '')) continue;
        record.index = k;
        record.sample = sample;
        record.visitorKey = siteIndex * VISITOR_SPACE + (sessions.visitor[sample] as number);
        record.sessionKey = sessionBase + sample;
        visit(record);
      }
      sessionBase += sessions.count;
      unreported += activity.count + (ctx.traffic.generatedWork() - before) * GENERATED_RECORD_WORK;
      if (unreported >= YIELD_RECORDS) {
        yield unreported;
        unreported = 0;
      }
    }
  }
  if (unreported > 0) yield unreported;
}

/**
 * Keys of ingested records for distinct counts: one per (website, id), from 0xF0000000 up, above
 * every key of generated records (visitor keys stay below 960 websites × {@link VISITOR_SPACE},
 * session keys below the samples one scan reads), so they never meet. Past 268 million distinct
 * ids they wrap around within their own space.
 */
export interface IngestedKeys {
  /** The key of the visitor with anonymous id `id` ('' is one visitor too, as `uniq` counts it). */
  visitor(siteIndex: number, id: string): number;
  /** The key of the session `id`. */
  session(siteIndex: number, id: string): number;
}

const INGESTED_KEY_BASE = 0xf000_0000;
const INGESTED_KEY_SPACE = 0x0fff_ffff;

/** Creates the keys of one scan. */
export function createIngestedKeys(): IngestedKeys {
  const visitors = new Map<string, number>();
  const sessions = new Map<string, number>();
  const keyOf = (map: Map<string, number>, siteIndex: number, id: string): number => {
    const name = `${siteIndex}\u0000${id}`;
    let key = map.get(name);
    if (key === undefined) {
      key = INGESTED_KEY_BASE + (map.size % INGESTED_KEY_SPACE);
      map.set(name, key);
    }
    return key;
  };
  return {
    visitor: (siteIndex, id) => keyOf(visitors, siteIndex, id),
    session: (siteIndex, id) => keyOf(sessions, siteIndex, id),
  };
}

/** One ingested record as {@link scanIngested} visits it. */
export interface IngestedVisit<R extends SpanRecord> {
  readonly website: Website;
  readonly record: R;
  readonly visitorKey: number;
  readonly sessionKey: number;
  /** The record's place in the scan (0, 1, …): a stable tie-break. */
  readonly serial: number;
}

/** How {@link scanIngested} applies the request's filters. */
export interface IngestedFilterOptions<R extends SpanRecord> {
  /** False for builders that never apply filters. */
  readonly apply: boolean;
  /** The record's value of a field the span kind has (message, error_type …); the common fields are known. */
  readonly fieldValue?: (record: R, field: string) => string;
}

/** The filter fields every span record has (the others it lacks, country, region, city …, hold ''). */
const SPAN_FIELDS: FieldReaders<SpanRecord> = {
  path: (record) => record.path,
  browser_name: (record) => record.browserName,
  os_name: (record) => record.osName,
  device_type: (record) => record.deviceType,
  anonymous_id: (record) => record.anonymousId,
  session_id: (record) => record.sessionId,
};

/**
 * Visits the ingested records of `kind` on the scope's websites whose time is within
 * [ctx.fromMs, ctx.toMs], in a fixed order (website, day, arrival), with weight 1 each. With
 * `apply`, every filter acts on the record's own fields (a dimension it lacks, such as country,
 * holds ''). Costs nothing for a website that holds no record of the kind, and one step per
 * record of the range's days otherwise.
 */
export function scanIngested<R extends SpanRecord>(
  ctx: RunContext,
  kind: IngestKind<R>,
  filters: IngestedFilterOptions<R>,
  visit: (visit: IngestedVisit<R>) => void,
  keys: IngestedKeys = createIngestedKeys(),
): void {
  if (ctx.scope.kind !== 'websites' || ctx.toMs < ctx.fromMs) return;
  const firstDay = Math.floor(ctx.fromMs / DAY_MS);
  const lastDay = Math.floor(ctx.toMs / DAY_MS);
  const tests = filters.apply ? ctx.filters.tests : [];
  const valueOf = createFieldReader<R>(SPAN_FIELDS, filters.fieldValue);
  let serial = 0;
  ctx.scope.websites.forEach((website, siteIndex) => {
    if (!ctx.ingested.holds(kind, website.id)) return;
    for (let day = firstDay; day <= lastDay; day++) {
      for (const record of ctx.ingested.onDay(kind, website.id, day)) {
        if (record.timestamp < ctx.fromMs || record.timestamp > ctx.toMs) continue;
        if (tests.length > 0 && !passesFilters(ctx.filters, (field) => valueOf(record, field))) continue;
        visit({
          website,
          record,
          visitorKey: keys.visitor(siteIndex, record.anonymousId),
          sessionKey: keys.session(siteIndex, record.sessionId),
          serial: serial++,
        });
      }
    }
  });
}

const codesByDictionary = new WeakMap<readonly string[], Map<string, number>>();

/** The code of `value` in a dictionary, or -1 when the dictionary does not hold it. */
export function dictionaryCodeOf(dictionary: readonly string[], value: string): number {
  let codes = codesByDictionary.get(dictionary);
  if (!codes) {
    codes = new Map();
    dictionary.forEach((entry, code) => {
      if (!codes?.has(entry)) codes?.set(entry, code);
    });
    codesByDictionary.set(dictionary, codes);
  }
  return codes.get(value) ?? -1;
}
