import type { Simulator } from '../../../src/sim/simulator.js';
import { call, secretOf, type Answer } from '../../helpers/sim.js';

/** A result row as the API sends it. */
export type Row = Record<string, unknown>;

/** One parameter's outcome inside a query result. */
export interface ParameterOutcome {
  parameter: string;
  success: boolean;
  error?: string;
  data: Row[];
}

/** Where a query runs: the query-string ids, and optionally a time zone. */
export type Target = Record<string, string>;

export const WWW: Target = { website_id: 'web_acme_www' };
export const STORE: Target = { website_id: 'web_acme_store' };
export const LABS: Target = { website_id: 'web_acme_labs' };
export const LAUNCH_LINK: Target = { link_id: 'link_acme_launch' };
export const STORE_MONITOR: Target = { schedule_id: 'mon_acme_store' };

/** The 14 filter fields every website type accepts, in the service's order (observed §2.2). */
export const GLOBAL_FILTERS = [
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
];

/** The 11 presets, in the service's order (observed §3). */
export const PRESETS = [
  'today',
  'yesterday',
  'last_7d',
  'last_14d',
  'last_30d',
  'last_90d',
  'this_week',
  'last_week',
  'this_month',
  'last_month',
  'this_year',
] as const;

/**
 * Types whose rows need more than a website and a week: the filters that pick the record they
 * describe (one visitor, one session). The others must answer at least one row on a busy site.
 */
export const INPUT_OF_TYPE: Record<string, { filters?: unknown[] }> = {
  // H2: ids of seed 42 from identity.ts: web_acme_store's first sample on 2025-05-26 (a session) and its third (an identified visitor).
  session_events: { filters: [{ field: 'session_id', op: 'eq', value: 'sess_2mf00000pdczb4' }] },
  profile_detail: { filters: [{ field: 'anonymous_id', op: 'eq', value: 'anon_5cawxh114sbvs0' }] },
  profile_sessions: { filters: [{ field: 'anonymous_id', op: 'eq', value: 'anon_5cawxh114sbvs0' }] },
  // The seventh sample's visitor (profile user_8clkku1) pays in that session.
  profile_revenue: { filters: [{ field: 'anonymous_id', op: 'eq', value: 'user_8clkku1' }] },
  identified_profile_retention: {
    filters: [
      { field: 'activation_event', op: 'eq', value: 'add_to_cart' },
      { field: 'return_event', op: 'eq', value: 'purchase' },
      { field: 'horizon_days', op: 'eq', value: '7' },
      { field: 'observation_end', op: 'eq', value: '2025-06-08' },
    ],
  },
  error_customer_impact: { filters: [{ field: 'message', op: 'eq', value: 'Failed to fetch' }] },
  error_route_continuation_comparison: { filters: [{ field: 'message', op: 'eq', value: 'Failed to fetch' }] },
};

/** The query target of a type, judged from its name as a client would. */
export function targetOf(type: string): 'link' | 'monitor' | 'website' {
  if (type.startsWith('link_')) return 'link';
  if (type.startsWith('uptime_')) return 'monitor';
  return 'website';
}

/** POST /v1/query with a fixture key (key_acme_read unless told). */
export function runQuery(
  sim: Simulator,
  body: unknown,
  target: Target = WWW,
  keyId: string | null = 'key_acme_read',
): Promise<Answer> {
  return call(sim, 'POST', '/v1/query', {
    query: target,
    body,
    ...(keyId === null ? {} : { key: secretOf(sim, keyId) }),
  });
}

/** POST /v1/query/compile with a fixture key (key_acme_read unless told; null sends none). */
export function runCompile(
  sim: Simulator,
  body: unknown,
  target: Target = WWW,
  keyId: string | null = 'key_acme_read',
): Promise<Answer> {
  return call(sim, 'POST', '/v1/query/compile', {
    query: target,
    body,
    ...(keyId === null ? {} : { key: secretOf(sim, keyId) }),
  });
}

/** The parameter outcomes of a single-query answer, asserting it succeeded. */
export function outcomesOf(answer: Answer): ParameterOutcome[] {
  if (answer.status !== 200 || answer.json?.success !== true) {
    throw new Error(`query failed: ${answer.status} ${answer.text.slice(0, 500)}`);
  }
  return answer.json.data as ParameterOutcome[];
}

/** The rows of the parameter called `parameter` (its id or name) in a single-query answer. */
export function rowsOf(answer: Answer, parameter: string): Row[] {
  const found = outcomesOf(answer).find((p) => p.parameter === parameter);
  if (!found) throw new Error(`no parameter ${parameter} in ${answer.text.slice(0, 300)}`);
  if (!found.success) throw new Error(`parameter ${parameter} failed: ${found.error}`);
  return found.data;
}

/** Runs one parameter and returns its rows. */
export async function rowsFor(sim: Simulator, type: string, body: Record<string, unknown>, target: Target = WWW, keyId = 'key_acme_read'): Promise<Row[]> {
  return rowsOf(await runQuery(sim, { parameters: [type], ...body }, target, keyId), type);
}

/** The sum of a numeric field over rows. */
export function sumOf(rows: readonly Row[], field: string): number {
  return rows.reduce((total, row) => total + (row[field] as number), 0);
}

/** The value of one field in every row. */
export function column<T = unknown>(rows: readonly Row[], field: string): T[] {
  return rows.map((row) => row[field] as T);
}

/** `YYYY-MM-DD` of a UTC day `offset` days after `date`. */
export function addDays(date: string, offset: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
}

/** Every calendar date from `first` to `last` inclusive. */
export function daysBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Body text without the request id, to compare answers of different requests. */
export function withoutRequestId(answer: Answer): string {
  return answer.text.replace(/"requestId":"[^"]*"/, '"requestId":"…"');
}

/** Moves the virtual clock to an instant (forward only). */
export async function setClock(sim: Simulator, iso: string): Promise<void> {
  const res = await call(sim, 'POST', '/__sim/clock', { body: { now: iso } });
  if (res.status !== 200) throw new Error(`clock refused: ${res.text}`);
}

/** Advances the virtual clock. */
export async function advanceClock(sim: Simulator, ms: number): Promise<void> {
  const res = await call(sim, 'POST', '/__sim/clock', { body: { advanceMs: ms } });
  if (res.status !== 200) throw new Error(`clock refused: ${res.text}`);
}
