import type { RunContext } from '../engine/definition.js';
import { passesFilters, type FieldTest, type FilterPlan } from '../engine/filters.js';

/** A query's filters split between the session scan and the fields a type tests on its own records. */
export interface SplitFilters {
  /** The context to scan sessions with: a filter on one of `fields` no longer excludes everything. */
  readonly sessions: RunContext;
  /** The filters on `fields`, to test each record with {@link passesRecord}. */
  readonly record: FilterPlan;
}

const NO_MASKS: ReadonlyMap<string, Uint8Array> = new Map();

/**
 * Splits the filters of `ctx` for a type whose records carry `fields` (ids, hrefs, property
 * keys …) that no dictionary holds: the compiled plan treats such a field as empty on every
 * session, so a filter on it would exclude every session; the type tests it on its records instead.
 */
export function splitFilters(ctx: RunContext, fields: ReadonlySet<string>): SplitFilters {
  const own: FieldTest[] = [];
  const others: FieldTest[] = [];
  for (const test of ctx.filters.tests) (fields.has(test.field) ? own : others).push(test);
  const excludesAll = others.some(
    (test) => !(test.field in ctx.dictionaries.values) && !passesFilters({ masks: NO_MASKS, excludesAll: false, tests: [test] }, () => ''),
  );
  return {
    sessions: excludesAll === ctx.filters.excludesAll ? ctx : { ...ctx, filters: { ...ctx.filters, excludesAll } },
    record: { masks: NO_MASKS, excludesAll: false, tests: own },
  };
}

/** Whether a record passes the record filters of a split; `valueOf` gives its field values ('' for none). */
export function passesRecord(split: SplitFilters, valueOf: (field: string) => string): boolean {
  return split.record.tests.length === 0 || passesFilters(split.record, valueOf);
}

/** A record's filterable fields: how to read each one, by filter field name. */
export type FieldReaders<R> = Readonly<Record<string, (record: R) => string>>;

/**
 * A record's value of a filter field, read by `readers`; a field they do not name is read by
 * `otherwise`, or holds the empty string.
 */
export function createFieldReader<R>(readers: FieldReaders<R>, otherwise?: (record: R, field: string) => string): (record: R, field: string) => string {
  const byField = new Map(Object.entries(readers));
  return (record, field) => {
    const read = byField.get(field);
    if (read !== undefined) return read(record);
    return otherwise !== undefined ? otherwise(record, field) : '';
  };
}
