import type { Filter, FilterOperator } from '../../../contract/query-request.js';
import type { DictionaryName, Dictionaries } from '../../model/traffic.js';
import { referrerHost } from './labels.js';

/** Filter fields every website query type accepts, in the service's order. */
export const GLOBAL_FILTER_FIELDS = [
  'path',
  'query_string',
  'country',
  'region',
  'city',
  'timezone',
  'language',
  'device_type',
  'browser_name',
  'os_name',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
] as const;

/** A filter compiled against one dictionary: `mask[code]` is 1 when the value passes. */
export interface CompiledFilter {
  readonly field: string;
  readonly mask: Uint8Array;
}

/** The filters of one parameter, ready for scanning. Fields not allowed are dropped. */
export interface FilterPlan {
  /** Masks over dictionaries, by field. Several filters on one field are AND-ed into one mask. */
  readonly masks: ReadonlyMap<string, Uint8Array>;
  /** True when a filter on a field with no data (query_string) excludes everything. */
  readonly excludesAll: boolean;
  /** The allowed filters with their normalized values, for records held as strings (tracked events). */
  readonly tests: readonly FieldTest[];
}

/** One allowed filter, ready to test a string value. */
export interface FieldTest {
  readonly field: string;
  readonly op: FilterOperator;
  readonly values: readonly string[];
}

/**
 * Whether a record whose fields are strings passes every filter of a plan; `valueOf` gives a
 * field's value, the empty string when the record has none (as in the generated traffic).
 */
export function passesFilters(plan: FilterPlan, valueOf: (field: string) => string): boolean {
  return plan.tests.every((test) => matches(test.op, test.field, valueOf(test.field), test.values));
}

function normalizeValue(field: string, value: string): string {
  return field === 'device_type' ? value.toLowerCase() : value;
}

/**
 * The forms a stored value can be matched by: referrers also match by bare host name, and an
 * empty device type as `desktop` (the service's filter matches `desktop` to the empty value too,
 * as device_types labels it Desktop).
 */
function candidates(field: string, stored: string): string[] {
  if (field === 'referrer' && stored !== '') return [stored, referrerHost(stored)];
  if (field === 'device_type' && stored === '') return [stored, 'desktop'];
  return [stored];
}

function matches(op: FilterOperator, field: string, stored: string, values: readonly string[]): boolean {
  const forms = candidates(field, stored);
  const first = values[0] ?? '';
  switch (op) {
    case 'eq':
      return forms.some((s) => s === first);
    case 'ne':
      return !forms.some((s) => s === first);
    case 'contains':
      return stored.includes(first);
    case 'not_contains':
      return !stored.includes(first);
    case 'starts_with':
      return stored.startsWith(first);
    case 'in':
      return forms.some((s) => values.includes(s));
    case 'not_in':
      return !forms.some((s) => values.includes(s));
  }
}

function normalizedValues(filter: Filter): string[] {
  const raw = Array.isArray(filter.value) ? filter.value : [filter.value];
  const values = raw.map((v) => normalizeValue(filter.field, String(v)));
  if (filter.field === 'referrer') return values.map((v) => (/^[a-z]+:\/\//i.test(v) ? v : referrerHost(v)));
  return values;
}

/**
 * Compiles `filters` for one query type. Only fields in `allowed` apply; the others are skipped
 * silently, as the service does, so one batch can share dimension-specific filters.
 * Values are compared as strings; `device_type` ignores case, and `desktop` matches its empty value. A field no dictionary holds
 * becomes a test only (`tests`) when it is one of `ownFields` (the type's own filters, which
 * its row source applies to its records: ids, error types, hrefs …); a global field without data
 * (`query_string`) excludes everything unless the empty string passes.
 */
export function compileFilters(
  filters: readonly Filter[],
  allowed: ReadonlySet<string>,
  dictionaries: Dictionaries,
  ownFields: ReadonlySet<string> = new Set(),
): FilterPlan {
  const masks = new Map<string, Uint8Array>();
  const tests: FieldTest[] = [];
  let excludesAll = false;
  for (const filter of filters) {
    if (!allowed.has(filter.field)) continue;
    const values = normalizedValues(filter);
    tests.push({ field: filter.field, op: filter.op, values });
    if (!(filter.field in dictionaries.values)) {
      // Global fields the generator has no data for hold the empty string on every row.
      if (!ownFields.has(filter.field) && !matches(filter.op, filter.field, '', values)) excludesAll = true;
      continue;
    }
    const dictionary = dictionaries.values[filter.field as DictionaryName];
    const mask = masks.get(filter.field) ?? new Uint8Array(dictionary.length).fill(1);
    for (let code = 0; code < dictionary.length; code++) {
      if (mask[code] && !matches(filter.op, filter.field, dictionary[code] ?? '', values)) mask[code] = 0;
    }
    masks.set(filter.field, mask);
  }
  return { masks, excludesAll, tests };
}
