import { z } from 'zod';
import { batchResponseSchema, compileResponseSchema, queryResponseSchema, queryTypesResponseSchema } from '../../contract/query-response.js';
import { websitesQuerySchema, websitesResponseSchema } from '../../contract/website.js';
import { errorBodySchema } from '../../contract/errors.js';
import {
  compileRequestSchema,
  DATE_PRESETS,
  queryBodySchema,
  queryStringSchema,
  type CompileRequest,
  type QueryBody,
  type QueryRequest,
} from '../../contract/query-request.js';
import type { ErrorDetail } from '../../contract/errors.js';
import { canReachWebsite, defaultOrganization, publicWebsite, reachableWebsites, resolveQueryScope, scopesOfTypes, websiteDenied } from '../auth/access.js';
import { featureUnavailable, missingProjectId, schemaValidation, validationError, type SimError } from '../errors.js';
import { defineRoute, isError, jsonText, ok, type Reply, type RouteContext } from '../routing/route.js';
import { pageOf, readListPage } from '../routing/list-page.js';
import { suggest } from '../text.js';
import { compileQuery } from './engine/compile-sql.js';
import { canonicalTimeZone } from './engine/dates.js';
import type { QueryScope, QueryTypeDefinition } from './engine/definition.js';
import type { Website } from '../model/entities.js';
import { followsLive, type Profile } from '../profile.js';
import { dataCutOf } from './engine/data-cut.js';
import { ownersOf } from './engine/scope-owners.js';
import { executeQuery, executeQueryInPieces, serializeResult } from './engine/execute.js';
import { isLongParameter, needsPieces, prefetchTraffic } from './engine/prefetch-traffic.js';
import { dateFormsHint, MAX_BATCH_QUERIES, MAX_LIMIT, namedTypes, type ParameterPlan, type QueryPlan } from './engine/plan.js';
import { issueDetails } from '../decode-body.js';
import { planRemembered } from './engine/remembered-plans.js';
import { checkWorkBudget, SINGLE_SCOPE, weighWebsites } from './engine/work-budget.js';
import { allowedFilters, findQueryType, isPublicType, QUERY_TYPES, QUERY_TYPE_NAMES, specMeta } from './registry.js';
import { scopeKey } from './engine/result-cache.js';

/**
 * The `timezone` parameter: an IANA name in its canonical spelling; an unknown name is dropped
 * (the service then answers in UTC, silently).
 */
const timezoneParam = z
  .string()
  .optional()
  .transform((tz) => (tz === undefined ? undefined : (canonicalTimeZone(tz) ?? undefined)))
  .describe('IANA time zone of presets, buckets and dates (default UTC; an unknown name falls back to UTC)');

/** The query string of `POST /v1/query`: the resource ids and the time zone. */
const queryParams = queryStringSchema.extend({ timezone: timezoneParam });

/** The query string of `POST /v1/query/compile`. */
const compileParams = z.object({ website_id: z.string().optional(), timezone: timezoneParam });

function queriesOf(body: QueryBody): QueryRequest[] {
  return Array.isArray(body) ? body : [body];
}

/**
 * The types each decoded body names: a memo of a pure function of a frozen value (a body text
 * the schema accepted is decoded once and shared, `pipeline/decoded-bodies.ts`), so it holds no
 * state of any simulator and goes with the body.
 */
const typesOfBody = new WeakMap<QueryBody, readonly QueryTypeDefinition[]>();

/** The existing types a body names, worked out once per body (access, scope and gate all ask). */
function typesNamedIn(body: QueryBody): readonly QueryTypeDefinition[] {
  let types = typesOfBody.get(body);
  if (types === undefined) typesOfBody.set(body, (types = namedTypes(queriesOf(body))));
  return types;
}

/** The newest body schema's pagination bounds (`page-bounds` under live): integers, limit 1 to 10000, page from 1. */
const livePageBounds = z.object({
  limit: z.number().int().min(1).max(MAX_LIMIT).optional(),
  page: z.number().int().min(1).optional(),
});

/**
 * `page-bounds` under live: the 422 VALIDATION the newest body schema answers for a limit or page
 * out of its bounds, in any query of a batch (`body[i].limit`), in the words of a schema refusal;
 * null when every query is within them.
 */
function pageBoundsRefusal(body: QueryBody): SimError | null {
  const details: ErrorDetail[] = [];
  queriesOf(body).forEach((query, i) => {
    if (query.limit === undefined && query.page === undefined) return;
    const parsed = livePageBounds.safeParse({ limit: query.limit, page: query.page });
    if (!parsed.success) details.push(...issueDetails(parsed.error.issues, Array.isArray(body) ? [i] : []));
  });
  return details.length > 0 ? schemaValidation(details) : null;
}

/** Whether any query of the body carries a filter (an empty `filters` list carries none). */
function carriesFilters(body: QueryBody): boolean {
  return queriesOf(body).some((query) => query.filters !== undefined && query.filters.length > 0);
}

/**
 * Says what the service ignores in a query body: filters on fields a type does not allow
 * (dropped, yet counted in `filters_applied`) and the body's `timeZone` (never read; the time
 * zone comes from `?timezone=`).
 */
function warnIgnoredQueryParts(ctx: RouteContext<unknown>, queries: readonly QueryRequest[], plans: readonly QueryPlan[], batch: boolean): void {
  queries.forEach((query, i) => {
    const prefix = batch ? `batch[${i}].` : '';
    if (query.timeZone !== undefined) {
      ctx.warn({ field: `${prefix}timeZone`, message: 'timeZone in the body is not read and was ignored; send the time zone as ?timezone=', suggestion: 'Did you mean the query parameter timezone?' });
    }
    const plan = plans[i];
    if (!plan) return;
    if (followsLive(ctx.profile, 'duplicate-ids')) warnSharedResultNames(ctx, plan, prefix);
    plan.filters.slice(0, 20).forEach((filter, j) => {
      const unapplied = plan.parameters.filter((p) => p.type.appliedFilters !== undefined && !p.type.appliedFilters.includes(filter.field) && allowedFilters(p.type).includes(filter.field));
      if (unapplied.length > 0) {
        ctx.warn({
          field: `${prefix}filters[${j}].field`,
          message: `Filters on ${filter.field.slice(0, 64)} are listed for ${[...new Set(unapplied.map((p) => p.type.name))].slice(0, 5).join(', ')} but its query applies none on that field, as the service's does: ignored there`,
        });
      }
      const refusing = plan.parameters.filter((p) => !allowedFilters(p.type).includes(filter.field));
      const first = refusing[0];
      if (!first) return;
      const near = suggest(filter.field, allowedFilters(first.type));
      ctx.warn({
        field: `${prefix}filters[${j}].field`,
        message: `Filters on ${filter.field.slice(0, 64)} are not allowed for ${[...new Set(refusing.map((p) => p.type.name))].slice(0, 5).join(', ')} and were ignored there (still counted in filters_applied, as the service does)`,
        ...(near && near !== filter.field ? { suggestion: `Did you mean '${near}'?` } : {}),
      });
    });
  });
}

/**
 * The details a refused request lists, given each query's problems in body order. Under `spec`
 * every invalid query's; under `live` (`validation`) only the first invalid query's, as the
 * service's batch validation stops there, with a Warning naming the other invalid queries.
 */
function batchDetails(ctx: RouteContext<unknown>, perQuery: readonly (readonly ErrorDetail[])[]): readonly ErrorDetail[] {
  if (perQuery.every((details) => details.length === 0)) return NO_DETAILS;
  if (!followsLive(ctx.profile, 'validation')) return perQuery.flat();
  const invalid = perQuery.flatMap((details, i) => (details.length > 0 ? [i] : []));
  const [first, ...others] = invalid;
  if (first === undefined) return [];
  if (others.length > 0) {
    const named = others.slice(0, 5).map((i) => `batch[${i}]`);
    ctx.warn({
      field: 'batch',
      message: `${others.length === 1 ? `${named[0]} is` : `${named.join(', ')}${others.length > 5 ? ` and ${others.length - 5} more` : ''} are`} invalid too; their details are left out, as the service lists only the first invalid query's`,
    });
  }
  return [...(perQuery[first] as readonly ErrorDetail[])];
}

const NO_DETAILS: readonly ErrorDetail[] = Object.freeze([]);

/** `duplicate-ids` under `live`: names the parameters whose result another one's replaces (at most 5). */
function warnSharedResultNames(ctx: RouteContext<unknown>, plan: QueryPlan, prefix: string): void {
  const first = new Map<string, number>();
  let named = 0;
  plan.parameters.forEach((parameter, j) => {
    const earlier = first.get(parameter.key);
    if (earlier === undefined) {
      first.set(parameter.key, j);
      return;
    }
    if (named++ >= 5) return;
    ctx.warn({
      field: `${prefix}parameters[${j}]`,
      message: `parameters[${j}] has the result name ${parameter.key.slice(0, 64)} of parameters[${earlier}]: the service keeps one result per name, so one entry answers both (the last one's result, in the first one's place); give each parameter its own id to get both`,
    });
  });
}

/** Plans with error tracking; any other (and none) counts as free, as the service's feature table has it. */
const ERROR_TRACKING_PLANS = new Set(['hobby', 'pro', 'scale']);


/**
 * The service's plan gate: a request that names a gated type (batch included) fails whole with
 * 402 when the organization it reads is on a plan without the feature. Under `spec` only a
 * request on one website (`website_id`) is gated, and only the eight error types the route
 * version read lists; under `live` (`plan-gate`) every website scope is (`website_id`,
 * `organization_id`, no id with an organization implied), and `error_fingerprints` too. Link-
 * and monitor-scoped requests are never gated.
 */
function planGate(ctx: RouteContext<{ website_id?: string | undefined }>, types: readonly QueryTypeDefinition[], scope: QueryScope): SimError | null {
  if (scope.kind !== 'websites') return null;
  const live = followsLive(ctx.profile, 'plan-gate');
  if (!live && ctx.query.website_id === undefined) return null;
  const gated = types.filter((t) => (live ? t.liveGate : t.gate) === 'error_tracking');
  if (gated.length === 0) return null;
  const organizationId = scope.organizationId ?? scope.websites[0]?.organizationId;
  const plan = (organizationId !== undefined ? ctx.state.organizations.get(organizationId)?.plan : undefined) ?? 'free';
  return ERROR_TRACKING_PLANS.has(plan) ? null : featureUnavailable('error tracking', gated.map((t) => t.name), plan);
}

/**
 * The public website a `/v1/query/compile` request may read without the website's permission:
 * under `live` (`public-policy`) the same rule as a query's (a public website, a public type,
 * no filter); under `spec` none (the route always needs a credential and reach).
 */
function compilePublicWebsite(ctx: RouteContext<{ website_id?: string | undefined }>, body: CompileRequest): Website | null {
  if (!followsLive(ctx.profile, 'public-policy')) return null;
  const type = findQueryType(body.type);
  const filtered = body.filters !== undefined && body.filters.length > 0;
  return publicWebsite({ website_id: ctx.query.website_id }, type ? [type] : [], ctx.state, ctx.profile, filtered);
}

/** One type's entry in `configs`, as the profile reports it. */
function typeConfig(type: QueryTypeDefinition, profile: Profile, includeMeta: boolean): Record<string, unknown> {
  if (followsLive(profile, 'types-meta')) {
    return {
      allowedFilters: allowedFilters(type),
      ...(type.liveCustomizable === undefined ? {} : { customizable: type.liveCustomizable }),
      ...(type.liveLimit === undefined ? {} : { defaultLimit: type.liveLimit }),
      publicAccess: isPublicType(type, profile),
      ...(includeMeta ? { meta: type.meta } : {}),
    };
  }
  return {
    allowedFilters: allowedFilters(type),
    customizable: type.customizable,
    defaultLimit: type.defaultLimit,
    publicAccess: isPublicType(type, profile),
    ...(includeMeta ? { meta: specMeta(type) } : {}),
  };
}

/** The `/v1/query/types` body after `requestId`, serialized once per profile and `include_meta` value. */
const typesBodyTail = new Map<string, string>();
function typesTail(profile: Profile, includeMeta: boolean): string {
  const key = `${profile}:${includeMeta}`;
  let tail = typesBodyTail.get(key);
  if (tail === undefined) {
    const configs: Record<string, unknown> = {};
    for (const type of QUERY_TYPES) configs[type.name] = typeConfig(type, profile, includeMeta);
    tail = JSON.stringify({ types: QUERY_TYPE_NAMES, configs, presets: DATE_PRESETS }).slice(1);
    typesBodyTail.set(key, tail);
  }
  return tail;
}

/** The Query API of SPEC section 4. */
export const queryRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/query/websites',
    family: 'query',
    access: { kind: 'key', scope: 'read:data' },
    summary: 'List the websites the caller can access (read:data), a page of at most 1,000 at a time; total counts them all.',
    query: websitesQuerySchema,
    responses: {
      200: { description: 'One page of the websites the caller reaches, oldest first; total counts every one', schema: websitesResponseSchema },
      400: { description: 'page or limit is not usable (VALIDATION_ERROR), details name it', schema: errorBodySchema },
    },
    handle(ctx) {
      const reachable = reachableWebsites(ctx.principal, ctx.state);
      const websites = pageOf(reachable, readListPage(ctx.query)).map((w) => ({
        id: w.id,
        name: w.name,
        domain: w.domain,
        isPublic: w.isPublic,
        createdAt: new Date(w.createdAt).toISOString(),
        organizationId: w.organizationId,
        organizationName: ctx.state.organizations.get(w.organizationId)?.name ?? '',
      }));
      return ok({ success: true, requestId: ctx.requestId, websites, total: reachable.length });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/query/types',
    family: 'query',
    access: { kind: 'public' },
    summary: 'List the query types with their filters, limits and (with include_meta=true) output fields. Public.',
    query: z.object({
      include_meta: z
        .enum(['true', 'false'])
        .optional()
        .catch(undefined)
        .describe('Include each type’s meta (description, output fields, visualization hints); any other value counts as false'),
    }),
    responses: { 200: { description: 'Every query type and its configuration', schema: queryTypesResponseSchema } },
    handle(ctx) {
      const tail = typesTail(ctx.profile, ctx.query.include_meta === 'true');
      return jsonText(`{"success":true,"requestId":${JSON.stringify(ctx.requestId)},${tail}`);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/query',
    family: 'query',
    access: {
      kind: 'key',
      scope: 'read:data',
      scopesFor: (body: QueryBody) => scopesOfTypes(typesNamedIn(body)),
      publicWhen: (ctx, body) => publicWebsite(ctx.query, typesNamedIn(body), ctx.state, ctx.profile, carriesFilters(body)) !== null,
    },
    summary:
      'Run one query or a batch (read:data; uptime types read:monitors). Public types on a public website need no credential (under the live profile, only without any filter).',
    query: queryParams,
    responses: {
      200: { description: 'One result (single query) or `results` (batch); failed parameters come last', schema: z.union([queryResponseSchema, batchResponseSchema]) },
      402: {
        description:
          'A named type needs error tracking, which the plan of the organization read lacks (FEATURE_UNAVAILABLE); the whole request fails. Under the live profile at every website scope, error_fingerprints included',
        schema: errorBodySchema,
      },
      422: {
        description: 'The body does not have the schema’s shape (VALIDATION), with details naming the fields; under the live profile also a limit or page out of bounds',
        schema: errorBodySchema,
      },
    },
    limit: 'query:execute',
    // A query reads the state and fills only this process's caches: with a shared store it is
    // answered where it arrives, not logged and run again by every process.
    effects: 'none',
    body: queryBodySchema,
    authorize(ctx, body): QueryScope | SimError {
      // page-bounds: live's body schema refuses these before the route looks at the request;
      // the route's first own step is the nearest (the simulator's schema is both profiles').
      if (followsLive(ctx.profile, 'page-bounds')) {
        const refused = pageBoundsRefusal(body);
        if (refused) return refused;
      }
      const scope = resolveQueryScope(ctx.principal, ctx.query, typesNamedIn(body), ctx.state, ctx.profile, carriesFilters(body));
      if (!isError(scope) && scope.kind === 'websites' && scope.organizationId !== undefined && ctx.query.organization_id === undefined) {
        ctx.warn({
          field: 'website_id',
          message: `No website_id, link_id, schedule_id or organization_id was named: answered for all ${scope.websites.length} websites of organization ${scope.organizationId}, as the service does for a global key or a session`,
        });
      }
      return scope;
    },
    validate(ctx, body, scope): QueryPlan[] | SimError {
      const queries = queriesOf(body);
      const gated = planGate(ctx, typesNamedIn(body), scope);
      if (gated) return gated;
      const details: ErrorDetail[] = [];
      if (Array.isArray(body) && body.length === 0) details.push({ field: 'batch', message: 'A batch needs at least one query' });
      // validation: the live service has no batch size cap (spec: SPEC's 50).
      if (queries.length > MAX_BATCH_QUERIES) {
        if (followsLive(ctx.profile, 'validation')) {
          ctx.warn({ field: 'batch', message: `A batch of ${queries.length} queries is over SPEC's ${MAX_BATCH_QUERIES}; answered whole, as the service has no cap` });
        } else {
          details.push({ field: 'batch', message: `A batch holds at most ${MAX_BATCH_QUERIES} queries` });
        }
      }
      if (details.length > 0) return validationError(details);
      const tz = ctx.query.timezone ?? 'UTC';
      const options = { profile: ctx.profile, warn: ctx.warn };
      const perQuery = queries.map(() => [] as ErrorDetail[]);
      const plans = queries.map((query, i) => planRemembered(query, Array.isArray(body) ? `batch[${i}].` : '', ctx.now, tz, perQuery[i] as ErrorDetail[], options));
      const refused = batchDetails(ctx, perQuery);
      if (refused.length > 0) {
        const refusal = validationError(refused);
        const hint = dateFormsHint(refused);
        return hint === undefined ? refusal : { ...refusal, hint };
      }
      warnIgnoredQueryParts(ctx, queries, plans as QueryPlan[], Array.isArray(body));
      const overBudget = checkWorkBudget(plans as QueryPlan[], scope.kind === 'websites' ? weighWebsites(scope.websites) : SINGLE_SCOPE, Array.isArray(body));
      if (overBudget) return validationError([overBudget]);
      return plans as QueryPlan[];
    },
    handle(ctx, body, scope, plans) {
      const head = `{"success":true,"requestId":${JSON.stringify(ctx.requestId)},`;
      const single = !Array.isArray(body);
      const { answers } = ctx.state;
      // Where the data ends: the last whole minute, or the latest record accepted since.
      const owners = ownersOf(scope);
      const cutMs = dataCutOf(scope, ctx.now, ctx.state.trackedEvents, ctx.state.ingested, owners);
      // A single query asked again (same body, scope and cut, no data changed): the answer it got.
      const lookup = single ? answers.read(plans[0] as QueryPlan, scope, cutMs, owners) : undefined;
      if (lookup?.text !== undefined) return jsonText(`${head}${lookup.text}}`);
      let warned = false;
      const env = {
        now: ctx.now,
        cutMs,
        timezone: ctx.query.timezone ?? 'UTC',
        traffic: ctx.state.traffic,
        dictionaries: ctx.state.dictionaries.current(),
        cache: ctx.state.results,
        events: ctx.state.trackedEvents,
        ingested: ctx.state.ingested,
        profiles: ctx.state.profiles,
        profile: ctx.profile,
        replay: ctx.state.replay,
        warn: (field: string, message: string) => {
          warned = true;
          ctx.warn({ field, message });
        },
      };
      const answered = (text: string): Reply => {
        if (lookup !== undefined && !warned) answers.write(lookup, text);
        return jsonText(`${head}${text}}`);
      };
      const scopeText = lookup?.key ?? scopeKey(scope);
      const tracked = { events: env.events, owners };
      if (single && !needsPieces(plans, scope, ctx.now, tracked)) return answered(serializeResult(executeQuery(plans[0] as QueryPlan, scope, env, scopeText)));
      // A batch is answered query by query, and a long parameter's days are generated in pieces
      // before its pass, letting other requests run in between. The work keeps the websites it
      // planned with; a change that clears the caches meanwhile (a website's traffic size, a
      // monitor) must not have them refilled from those, so it works on pinned caches.
      const pinned = { ...env, traffic: env.traffic.pin(), cache: env.cache.pin() };
      const pause = (): Promise<void> => ctx.yieldToEventLoop();
      const prepare = (parameter: ParameterPlan): Promise<void> => prefetchTraffic(parameter, scope, pinned.traffic, pinned.dictionaries, ctx.now, pause);
      const passInPieces = (parameter: ParameterPlan): boolean => isLongParameter(parameter, scope, ctx.now, tracked);
      return (async () => {
        const results: string[] = [];
        for (const plan of plans) {
          if (results.length > 0) await pause();
          results.push(serializeResult(await executeQueryInPieces(plan, scope, pinned, pause, prepare, passInPieces, scopeText)));
        }
        if (single) return answered(results[0] as string);
        return jsonText(`${head}"batch":true,"results":[${results.map((result) => `{${result}}`).join(',')}]}`);
      })();
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/query/compile',
    family: 'query',
    access: {
      kind: 'key',
      scope: 'read:data',
      publicWhen: (ctx, body: CompileRequest) => compilePublicWebsite(ctx, body) !== null,
    },
    summary:
      'Compile a query to SQL and parameters without running it (read:data). Under the live profile, a public type on a public website without any filter needs no credential, as /v1/query.',
    query: compileParams,
    responses: { 200: { description: 'ClickHouse-style SQL and its parameters', schema: compileResponseSchema } },
    limit: 'query:compile',
    // A query reads the state and fills only this process's caches: with a shared store it is
    // answered where it arrives, not logged and run again by every process.
    effects: 'none',
    body: compileRequestSchema,
    authorize(ctx, body): undefined | SimError {
      if (compilePublicWebsite(ctx, body) !== null) return undefined;
      const { principal } = ctx;
      const websiteId = ctx.query.website_id;
      if (websiteId !== undefined) {
        const website = ctx.state.websites.get(websiteId);
        return website && canReachWebsite(principal, website) ? undefined : websiteDenied(principal, websiteId, ctx.state);
      }
      return defaultOrganization(principal) === null ? missingProjectId() : undefined;
    },
    handle(ctx, body) {
      // validation: live's body schema has `type` as an enum of every registry key, so an
      // unknown type is 422 VALIDATION there (spec: 400 COMPILATION_ERROR).
      if (followsLive(ctx.profile, 'validation') && !findQueryType(body.type)) {
        ctx.warn({ field: 'type', message: `Unknown query type ${body.type.slice(0, 64)}: 422 VALIDATION, as the service's schema refuses it` });
        return schemaValidation([{ field: 'type', message: 'Invalid value' }]);
      }
      const compiled = compileQuery(body, ctx.query.timezone ?? 'UTC');
      if ('code' in compiled) return compiled;
      return ok({ success: true, requestId: ctx.requestId, sql: compiled.sql, params: compiled.params });
    },
  }),
];
