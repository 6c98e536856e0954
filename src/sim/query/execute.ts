import type { Dictionaries } from '../model/traffic.js';
import type { TrafficReader } from '../traffic-cache.js';
import type { EventReader } from '../ingest/event-store.js';
import type { QueryScope, QueryTarget, Row } from './definition.js';
import { compileFilters } from './filters.js';
import type { ParameterPlan, QueryPlan } from './plan.js';
import { allowedFilters } from './registry.js';
import { resultKey, type ResultCache } from './result-cache.js';

/** The outcome of one parameter: its rows are already serialized (`rowsJson`, a JSON array). */
export interface ParameterResult {
  readonly parameter: string;
  readonly success: boolean;
  readonly error?: string;
  readonly rowsJson: string;
}

/** The result of one query: `data` and `meta` of SPEC 4.4. */
export interface QueryResult {
  readonly queryId: string;
  readonly data: ParameterResult[];
  readonly meta: {
    readonly parameters: readonly string[];
    readonly total_parameters: number;
    readonly page: number;
    readonly limit: number;
    readonly filters_applied: number;
  };
}

/** What execution needs from the simulator. */
export interface ExecutionEnvironment {
  readonly now: number;
  readonly timezone: string;
  readonly traffic: TrafficReader;
  readonly dictionaries: Dictionaries;
  readonly cache: ResultCache;
  /** Custom events accepted by `POST /track`. */
  readonly events: EventReader;
}

const TARGET_OF_SCOPE: Record<QueryScope['kind'], QueryTarget> = { websites: 'website', link: 'link', monitor: 'monitor' };
const ID_OF_TARGET: Record<QueryTarget, string> = { website: 'website_id or organization_id', link: 'link_id', monitor: 'schedule_id' };

function runParameter(plan: QueryPlan, parameter: ParameterPlan, scope: QueryScope, env: ExecutionEnvironment): ParameterResult {
  const { type } = parameter;
  if (TARGET_OF_SCOPE[scope.kind] !== type.target) {
    return { parameter: parameter.key, success: false, error: `Query type ${type.name} needs ${ID_OF_TARGET[type.target]}`, rowsJson: '[]' };
  }
  const limit = plan.limit ?? type.defaultLimit;
  const offset = (plan.page - 1) * limit;
  const compute = (): Row[] =>
    type.run({
      scope,
      fromMs: parameter.fromMs,
      toMs: parameter.toMs,
      unit: parameter.unit,
      timezone: env.timezone,
      filters: compileFilters(plan.filters, new Set(allowedFilters(type)), env.dictionaries),
      now: env.now,
      traffic: env.traffic,
      dictionaries: env.dictionaries,
      events: env.events,
    });
  try {
    if (type.skipDateRange) {
      return { parameter: parameter.key, success: true, rowsJson: JSON.stringify(compute().slice(offset, offset + limit)) };
    }
    const key = resultKey(type, scope, parameter, env.timezone, plan.filters) + (type.readsTrackedEvents ? `|e${env.events.version}` : '');
    return { parameter: parameter.key, success: true, rowsJson: env.cache.page(key, compute, offset, limit) };
  } catch {
    return { parameter: parameter.key, success: false, error: 'Query execution failed', rowsJson: '[]' };
  }
}

/**
 * Runs every parameter of a valid plan against its scope and pages the rows. Failed
 * parameters come after successful ones, each group in request order, as the service sends them.
 */
export function executeQuery(plan: QueryPlan, scope: QueryScope, env: ExecutionEnvironment): QueryResult {
  const results = plan.parameters.map((p) => runParameter(plan, p, scope, env));
  return {
    queryId: plan.queryId,
    data: [...results.filter((r) => r.success), ...results.filter((r) => !r.success)],
    meta: {
      parameters: plan.parameterNames,
      total_parameters: plan.parameterNames.length,
      page: plan.page,
      limit: plan.limit ?? sharedDefaultLimit(plan),
      filters_applied: plan.filters.length,
    },
  };
}

/**
 * The JSON text of a query result's fields after `requestId` (`queryId`, `data`, `meta`, in
 * that order), built around the cached row pages. Equal to `JSON.stringify` of the same object.
 */
export function serializeResult(result: QueryResult): string {
  const parameters = result.data.map(
    (p) =>
      `{"parameter":${JSON.stringify(p.parameter)},"success":${p.success}${p.error === undefined ? '' : `,"error":${JSON.stringify(p.error)}`},"data":${p.rowsJson}}`,
  );
  return `"queryId":${JSON.stringify(result.queryId)},"data":[${parameters.join(',')}],"meta":${JSON.stringify(result.meta)}`;
}

/** The page size `meta.limit` reports without a requested one: the types' shared default, else 100. */
function sharedDefaultLimit(plan: QueryPlan): number {
  const limits = new Set(plan.parameters.map((p) => p.type.defaultLimit));
  return limits.size === 1 ? (limits.values().next().value as number) : 100;
}
