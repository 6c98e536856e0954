import type { Website } from '../model/entities.js';
import type { SessionBatch } from '../model/traffic.js';
import { DAY_MS } from '../model/world.js';
import type { Derivation } from '../traffic-cache.js';
import type { RunContext } from './definition.js';
import { passesFilters } from './filters.js';

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

/** One record of derived activity with its session, as {@link scanActivity} visits it. */
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

/** How {@link scanActivity} applies the request's filters. */
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
 */
export function scanActivity<T extends DayActivity>(
  ctx: RunContext,
  derivation: Derivation<T>,
  filters: ActivityFilterOptions<T>,
  visit: (record: ActivityRecord<T>) => void,
): void {
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
  ctx.scope.websites.forEach((website, siteIndex) => {
    for (let day = firstDay; day <= lastDay; day++) {
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
    }
  });
}
