import type { Dictionaries } from '../../model/traffic.js';
import { MAX_SHARED_SCOPE, type TrafficReader } from '../../traffic-cache.js';
import type { ShortLink, UptimeMonitor, Website } from '../../model/entities.js';
import type { EventReader } from '../../ingest/event-store.js';
import type { IngestLedger } from '../../ingest/ingest-ledger.js';
import type { ProfileReader } from '../../ingest/profile-store.js';
import type { QueryScope, QueryTarget, QueryTypeDefinition, Row, RunContext, SpecShape } from './definition.js';
import { NEEDS_DAYS, runInPieces, runToEnd, type PassSteps } from './pass-steps.js';
import { compileFilters } from './filters.js';
import { followsLive, type Profile } from '../../profile.js';
import { isPlannedFailure, type ParameterPlan, type QueryPlan } from './plan.js';
import { allowedFilters } from '../registry.js';
import { resultKey, scopeKey, type ResultCache } from './result-cache.js';
import { ownersOf } from './scope-owners.js';
import { countOwnData } from './own-data.js';
import type { ReplayIndex } from './replay-lookup.js';

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
  /** Where the scope's data ends, inclusive ({@link dataCutOf}): never after `now`. */
  readonly cutMs: number;
  readonly timezone: string;
  readonly traffic: TrafficReader;
  readonly dictionaries: Dictionaries;
  readonly cache: ResultCache;
  /** Custom events accepted by `POST /track`. */
  readonly events: EventReader;
  /** What the other ingestion routes accepted (page views, vitals, errors, webhook revenue …). */
  readonly ingested: IngestLedger;
  /** Profiles and aliases of `POST /identify`. */
  readonly profiles: ProfileReader;
  readonly profile: Profile;
  /** Called with the exact reason when a parameter fails for a reason live hides behind "Query execution failed". */
  readonly warn?: (field: string, message: string) => void;
  /** A recording (`createSimulator({ replay })`): a parameter asked as a recorded one gets its recorded rows. */
  readonly replay?: ReplayIndex | null;
}

/** Passes in pieces a parameter runs while other requests keep changing its data, before one in a single piece. */
const PASS_ATTEMPTS = 2;

/** Fields `sortBy` may name, as the service's standard builders allow them. */
export const SORTABLE_FIELDS = [
  'avg_scroll_depth',
  'clicks',
  'count',
  'date',
  'errors',
  'pageviews',
  'revenue',
  'samples',
  'sessions',
  'time',
  'total',
  'total_events',
  'unique_users',
  'uptime_percentage',
  'visitors',
] as const;

const SORTABLE = new Set<string>(SORTABLE_FIELDS);

/** The service's message for a `sortBy` outside {@link SORTABLE_FIELDS}. */
export function orderByRefusal(orderBy: string): string {
  return `Ordering by '${orderBy}' is not permitted. Use '<field>' or '<field> ASC|DESC' where field is one of: ${SORTABLE_FIELDS.join(', ')}.`;
}

/** A row comparator for `field` in `order`; nulls sort last in both orders, ties keep their place. */
function compareBy(field: string, order: 'asc' | 'desc'): (a: Row, b: Row) => number {
  const sign = order === 'asc' ? 1 : -1;
  return (a, b) => {
    const x = a[field] ?? null;
    const y = b[field] ?? null;
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : x > y ? 1 : 0) * sign;
  };
}

/** Whether `type` answers with its SPEC.md shape under the profile. */
function runsSpecShape(type: QueryTypeDefinition, profile: Profile): boolean {
  return type.spec !== undefined && !followsLive(profile, 'row-shapes');
}

/** Rows of `type` under the profile: the SPEC.md shape where the type has one and the profile is spec. */
function runType(type: QueryTypeDefinition, profile: Profile, ctx: RunContext): Row[] {
  return runsSpecShape(type, profile) ? (type.spec as SpecShape).run(ctx) : type.run(ctx);
}

const TARGET_OF_SCOPE: Record<QueryScope['kind'], QueryTarget> = { websites: 'website', link: 'link', monitor: 'monitor' };
const ID_OF_TARGET: Record<QueryTarget, string> = { website: 'website_id or organization_id', link: 'link_id', monitor: 'schedule_id' };

/**
 * One parameter's result. With `inPieces` and a type that has {@link QueryTypeDefinition.steps},
 * rows that no cache holds are computed by those steps, each yield passed on (records read), so
 * the caller may let other requests run between them; else it never yields.
 */
function* parameterSteps(plan: QueryPlan, parameter: ParameterPlan, scope: QueryScope, scopeText: string, env: ExecutionEnvironment, inPieces: boolean): PassSteps<ParameterResult> {
  const { type } = parameter;
  if (TARGET_OF_SCOPE[scope.kind] !== type.target) {
    return { parameter: parameter.key, success: false, error: `Query type ${type.name} needs ${ID_OF_TARGET[type.target]}`, rowsJson: '[]' };
  }
  const recorded = env.replay?.find({
    type,
    scope,
    fromMs: parameter.fromMs,
    toMs: parameter.toMs,
    unit: parameter.unit,
    timezone: env.timezone,
    filters: plan.filters,
    limit: plan.limit,
    page: plan.page,
    sortBy: plan.sortBy,
    sortOrder: plan.sortOrder,
  });
  if (recorded !== undefined) {
    env.warn?.(parameter.key, `rows from the recording (entry ${recorded.entry} of ${env.replay?.source}), not from the generated world`);
    return { parameter: parameter.key, success: true, rowsJson: recorded.rowsJson };
  }
  const limit = plan.limit ?? (followsLive(env.profile, 'default-limit') ? 100 : type.defaultLimit);
  const offset = (plan.page - 1) * limit;
  const sort = type.paging === 'engine' && plan.sortBy !== undefined && plan.sortOrder !== undefined ? { field: plan.sortBy, order: plan.sortOrder } : null;
  if (!sort && type.paging === 'self' && plan.sortBy !== undefined && plan.sortOrder !== undefined) {
    env.warn?.('sortBy', `${type.name} orders its own rows; sortBy and sortOrder were ignored for it, as the service ignores them for custom-SQL types`);
  }
  if (sort && !SORTABLE.has(sort.field)) {
    env.warn?.(`sortBy`, `${type.name}: ${orderByRefusal(`${sort.field} ${sort.order.toUpperCase()}`)}`);
    return { parameter: parameter.key, success: false, error: 'Query execution failed', rowsJson: '[]' };
  }
  const toMs = Math.min(parameter.toMs, env.cutMs);
  // What the scope's own data (ingested records, identifies, tracked events) amounts to: all ''
  // and 0 while its rows are computed from generated traffic alone.
  const ingested = type.skipDateRange ? '' : ingestedStamp(type, scope, parameter.fromMs, toMs, env.ingested);
  const identified = type.skipDateRange ? '' : identifiedStamp(type, scope, env.profiles);
  // Everything that decides the rows but tracked events, the page and the order. Ingested
  // records are part of it: a new one on the scope's websites and days makes every part new.
  const baseKey = type.skipDateRange
    ? null
    : resultKey(type, scopeText, { fromMs: parameter.fromMs, toMs, unit: parameter.unit }, env.timezone, plan.filters) +
      // A range cut at now still reports the end it asked (ai_weekly_digest's period before it, retention's cohorts).
      (parameter.toMs === toMs ? '' : `|r${parameter.toMs}`) +
      (env.profile === 'spec' ? '' : `|${env.profile}`) +
      ingested +
      identified;
  const context = (): RunContext => ({
      scope,
      fromMs: parameter.fromMs,
      toMs,
      requestedToMs: parameter.toMs,
      unit: parameter.unit,
      timezone: env.timezone,
      filters: compileFilters(plan.filters, new Set(allowedFilters(type)), env.dictionaries, new Set(type.extraFilters)),
      now: env.now,
      traffic: env.traffic,
      dictionaries: env.dictionaries,
      events: env.events,
      ingested: env.ingested,
      profiles: env.profiles,
      limit: plan.limit,
      offset: type.paging === 'self' ? offset : 0,
      memo: (part, make) => (baseKey === null ? make() : env.cache.memo(`${baseKey}|${part}`, make)),
      memoSteps: (part, make) => (baseKey === null ? make() : env.cache.memoSteps(`${baseKey}|${part}`, make)),
    });
  const sorted = (rows: Row[]): Row[] => {
    if (!sort || rows.length === 0) return rows;
    if (!(sort.field in (rows[0] as Row))) throw new MissingSortField(sort.field);
    return rows.slice().sort(compareBy(sort.field, sort.order));
  };
  const compute = (): Row[] => sorted(runType(type, env.profile, context()));
  try {
    // A type that pages itself computes one page: its rows are kept under that page and served whole.
    const [from, count] = type.paging === 'self' ? [0, Number.MAX_SAFE_INTEGER] : [offset, limit];
    if (type.skipDateRange) {
      return { parameter: parameter.key, success: true, rowsJson: JSON.stringify(compute().slice(from, from + count)) };
    }
    const tracked = type.readsTrackedEvents ? trackedStamp(type, scope, parameter.fromMs, toMs, env.events) : 0;
    const key =
      (baseKey as string) +
      (type.paging === 'self' ? `|p${plan.limit ?? ''}:${offset}` : '') +
      (sort ? `|${sort.field}:${sort.order}` : '') +
      (type.readsTrackedEvents ? `|e${tracked}` : '') +
      // A retention row is observed up to the instant of the request (`observed_before`), whatever its range.
      (type.observedAtNow ? `|n${env.now}` : '');
    // Rows of generated traffic alone are the same in every simulator of the world and seed at
    // the same instant (a few types read the clock): a fresh simulator takes another's. The
    // scope's owners must hold nothing of their own on any day, not only on the range's: a few
    // types read received data whatever the range (mcp_summary's `tracked`).
    // Asked on a miss only: a cached page costs no count of the owners' data.
    const seededKey = `${key}|t${env.now}`;
    const shared = (): boolean => ingested === '' && identified === '' && tracked === 0 && !type.observedAtNow && ownsNothing(scope, env);
    const steps = inPieces ? (runsSpecShape(type, env.profile) ? type.spec?.steps : type.steps) : undefined;
    // A long parameter whose rows are not kept has its days generated before its pass; kept rows never wait for that.
    const computes = inPieces && !(env.cache.holds(key) || (shared() && env.traffic.holdsSeeded(entitiesOf(scope), env.dictionaries, seededKey)));
    if (computes) yield NEEDS_DAYS;
    if (steps !== undefined && computes) {
      // Other requests run between the pieces. Rows are the pass's only if what names them (the
      // data its key counts) did not change meanwhile: else they may mix two states of the data,
      // and a filter compiled before new values were registered may miss them. Such a pass is run
      // again, in pieces while the data keeps still, at last in one piece.
      const stamps = (): string =>
        `${ingestedStamp(type, scope, parameter.fromMs, toMs, env.ingested)}|${identifiedStamp(type, scope, env.profiles)}|${type.readsTrackedEvents ? trackedStamp(type, scope, parameter.fromMs, toMs, env.events) : 0}`;
      for (let attempt = 0; attempt < PASS_ATTEMPTS; attempt++) {
        const before = stamps();
        const computed = sorted(yield* steps(context()));
        if (stamps() !== before) continue;
        if (before !== `${ingested}|${identified}|${tracked}`) return { parameter: parameter.key, success: true, rowsJson: JSON.stringify(computed.slice(from, from + count)) };
        const keep = (): Row[] => (shared() ? env.traffic.seeded(entitiesOf(scope), env.dictionaries, seededKey, () => computed) : computed);
        return { parameter: parameter.key, success: true, rowsJson: env.cache.page(key, keep, from, count) };
      }
      return { parameter: parameter.key, success: true, rowsJson: JSON.stringify(compute().slice(from, from + count)) };
    }
    const rows = (): Row[] => (shared() ? env.traffic.seeded(entitiesOf(scope), env.dictionaries, seededKey, compute) : compute());
    return { parameter: parameter.key, success: true, rowsJson: env.cache.page(key, rows, from, count) };
  } catch (error) {
    if (error instanceof MissingSortField) {
      env.warn?.('sortBy', `${type.name} has no field ${error.field} to order by; the service fails this parameter`);
    } else if (!isPlannedFailure(error)) {
      env.warn?.(parameter.key, maskedCause(type, error));
    }
    return { parameter: parameter.key, success: false, error: 'Query execution failed', rowsJson: '[]' };
  }
}

/**
 * Whether the scope's owners hold no tracked event, ingested record or identify of the
 * simulator's own, on any day (a scope too large for the store of seeded results is not asked).
 */
function ownsNothing(scope: QueryScope, env: ExecutionEnvironment): boolean {
  if (scope.kind !== 'websites') return true;
  if (scope.websites.length > MAX_SHARED_SCOPE) return false;
  return countOwnData(ownersOf(scope), env.events, env.ingested, env.profiles) === 0;
}

/** The entities whose every field decides a scope's generated traffic: its websites, its link or its monitor. */
function entitiesOf(scope: QueryScope): readonly (Website | ShortLink | UptimeMonitor)[] {
  return scope.kind === 'websites' ? scope.websites : scope.kind === 'link' ? [scope.link] : [scope.monitor];
}

/**
 * What the tracked events a parameter reads amount to, for its cache key: the events of the
 * scope's owners on the days of the range (a retention type follows its cohorts past the range,
 * so it counts every day). An event on another website or another day leaves it unchanged, so
 * `/track` invalidates only the cached results it touches.
 */
function trackedStamp(type: QueryTypeDefinition, scope: QueryScope, fromMs: number, toMs: number, events: EventReader): number {
  if (scope.kind !== 'websites') return 0;
  const owners = ownersOf(scope);
  return type.readsEveryDay ? events.countOwned(owners) : events.countTouching(owners, fromMs, toMs);
}

/**
 * What the ingested records a parameter may read amount to, for its cache key ('' while the
 * scope's websites (and, for an organization, the organization) hold none on those days, so the
 * seeded world's keys are unchanged).
 */
function ingestedStamp(type: QueryTypeDefinition, scope: QueryScope, fromMs: number, toMs: number, ledger: IngestLedger): string {
  if (scope.kind !== 'websites' || ledger.size === 0) return '';
  const owners = ownersOf(scope);
  // Retention follows its cohorts past the range; the AI types report when server-side tracking began, whenever that was.
  const count = type.readsEveryDay ? ledger.countOwned(owners) : ledger.countTouching(owners, fromMs, toMs);
  return count === 0 ? '' : `|i${count}`;
}

/**
 * What `POST /identify` changed for the profile types' websites, for their cache key ('' until
 * it identified anybody there, so the seeded world's keys are unchanged): an alias links a
 * visitor to a profile whatever the range.
 */
function identifiedStamp(type: QueryTypeDefinition, scope: QueryScope, profiles: ProfileReader): string {
  if (!type.readsProfiles || scope.kind !== 'websites') return '';
  const version = profiles.version(scope.websites.map((w) => w.id));
  return version === 0 ? '' : `|p${version}`;
}

/**
 * What the service hides behind "Query execution failed", for the `Warning` and the journal: the
 * builder's own words (a missing required filter, an operator a filter does not take …), or, for
 * a failure of the simulator itself, that it is one.
 */
function maskedCause(type: QueryTypeDefinition, error: unknown): string {
  const hidden = `the service fails ${type.name} with only "Query execution failed"`;
  if (error instanceof Error && error.constructor === Error) return `${hidden}; the cause: ${error.message.slice(0, 300)}`;
  return `${hidden}; here the simulator itself failed on it (${error instanceof Error ? error.name : 'unknown error'}): please report this request`;
}

/** Thrown inside `compute` when rows lack the `sortBy` field (ClickHouse's unknown-column error). */
class MissingSortField extends Error {
  constructor(readonly field: string) {
    super(`No field ${field}`);
  }
}

/**
 * Runs every parameter of a valid plan against its scope and pages the rows. Failed
 * parameters come after successful ones, each group in request order, as the service sends them.
 */
export function executeQuery(plan: QueryPlan, scope: QueryScope, env: ExecutionEnvironment, scopeText = scopeKey(scope)): QueryResult {
  return assembleResult(plan, env, plan.parameters.map((p) => runToEnd(parameterSteps(plan, p, scope, scopeText, env, false))));
}

/**
 * {@link executeQuery} in pieces: before each parameter, awaits `pause` (between parameters),
 * and `prepare` (which may generate its days, yielding as it goes) once the parameter's rows
 * turn out not to be kept; a parameter of
 * `passInPieces` whose type has steps also awaits `pause` between pieces of its pass
 * ({@link runInPieces}). Same result as {@link executeQuery}.
 */
export async function executeQueryInPieces(
  plan: QueryPlan,
  scope: QueryScope,
  env: ExecutionEnvironment,
  pause: () => Promise<void>,
  prepare: (parameter: ParameterPlan) => Promise<void>,
  passInPieces: (parameter: ParameterPlan) => boolean,
  scopeText = scopeKey(scope),
): Promise<QueryResult> {
  const results: ParameterResult[] = [];
  for (const parameter of plan.parameters) {
    if (results.length > 0) await pause();
    results.push(await runInPieces(parameterSteps(plan, parameter, scope, scopeText, env, passInPieces(parameter)), pause, () => prepare(parameter)));
  }
  return assembleResult(plan, env, results);
}

/**
 * `duplicate-ids` under `live`: one result per result name, as the service's Map keyed by it
 * keeps them (the first one's place, the last one's result).
 */
function oneResultPerName(results: readonly ParameterResult[]): readonly ParameterResult[] {
  const byName = new Map<string, ParameterResult>();
  for (const result of results) byName.set(result.parameter, result);
  return byName.size === results.length ? results : [...byName.values()];
}

function assembleResult(plan: QueryPlan, env: ExecutionEnvironment, all: readonly ParameterResult[]): QueryResult {
  const results = followsLive(env.profile, 'duplicate-ids') ? oneResultPerName(all) : all;
  return {
    queryId: plan.queryId,
    data: [...results.filter((r) => r.success), ...results.filter((r) => !r.success)],
    meta: {
      parameters: plan.parameterNames,
      total_parameters: plan.parameterNames.length,
      page: plan.page,
      limit: plan.limit ?? (followsLive(env.profile, 'default-limit') ? 100 : sharedDefaultLimit(plan)),
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
