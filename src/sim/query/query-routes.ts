import { z } from 'zod';
import { batchResponseSchema, compileResponseSchema, queryResponseSchema, queryTypesResponseSchema } from '../../contract/query-response.js';
import { websitesQuerySchema, websitesResponseSchema } from '../../contract/website.js';
import { errorBodySchema } from '../../contract/errors.js';
import { compileRequestSchema, DATE_PRESETS, queryBodySchema, queryStringSchema, type QueryBody, type QueryRequest } from '../../contract/query-request.js';
import type { ErrorDetail } from '../../contract/errors.js';
import { canReachWebsite, defaultOrganization, publicWebsite, reachableWebsites, resolveQueryScope, scopesOfTypes } from '../auth/access.js';
import { accessDenied, featureUnavailable, missingProjectId, schemaValidation, validationError, type SimError } from '../errors.js';
import { defineRoute, isError, jsonText, ok, type Reply, type RouteContext } from '../routing/route.js';
import { pageOf, readListPage } from '../routing/list-page.js';
import { suggest } from '../text.js';
import { compileQuery } from './compile-sql.js';
import { canonicalTimeZone } from './dates.js';
import type { QueryScope, QueryTypeDefinition } from './definition.js';
import { followsLive, type Profile } from '../profile.js';
import { executeQuery, executeQueryInPieces, serializeResult } from './execute.js';
import { needsPieces, prefetchTraffic } from './prefetch-traffic.js';
import { MAX_BATCH_QUERIES, namedTypes, type ParameterPlan, type QueryPlan } from './plan.js';
import { planRemembered } from './remembered-plans.js';
import { checkWorkBudget, SINGLE_SCOPE, weighWebsites } from './work-budget.js';
import { allowedFilters, findQueryType, isPublicType, QUERY_TYPES, QUERY_TYPE_NAMES, specMeta } from './registry.js';
import { scopeKey } from './result-cache.js';

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

/** The body {@link typesNamedIn} last read, and its types: the stages of one request ask in turn. */
let lastBody: QueryBody | undefined;
let lastTypes: readonly QueryTypeDefinition[] = [];

/** The existing types a body names, worked out once per request body (access, scope and gate all ask). */
function typesNamedIn(body: QueryBody): readonly QueryTypeDefinition[] {
  if (body !== lastBody) {
    lastTypes = namedTypes(queriesOf(body));
    lastBody = body;
  }
  return lastTypes;
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
    plan.filters.slice(0, 20).forEach((filter, j) => {
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

/** Plans with error tracking; any other (and none) counts as free, as the service's feature table has it. */
const ERROR_TRACKING_PLANS = new Set(['hobby', 'pro', 'scale']);


/**
 * The service's plan gate: a request on one website (`website_id`) that names a gated type
 * (batch included) fails whole with 402 when the website's organization is on a plan without
 * the feature. Organization-, link- and monitor-scoped requests are never gated.
 */
function planGate(ctx: RouteContext<{ website_id?: string | undefined }>, types: readonly QueryTypeDefinition[], scope: QueryScope): SimError | null {
  if (ctx.query.website_id === undefined || scope.kind !== 'websites') return null;
  const gated = types.filter((t) => t.gate === 'error_tracking');
  if (gated.length === 0) return null;
  const website = scope.websites[0];
  const plan = (website && ctx.state.organizations.get(website.organizationId)?.plan) ?? 'free';
  return ERROR_TRACKING_PLANS.has(plan) ? null : featureUnavailable('error tracking', gated.map((t) => t.name), plan);
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
      const tail = typesTail(ctx.sim.profile, ctx.query.include_meta === 'true');
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
      publicWhen: (ctx, body) => publicWebsite(ctx.query, typesNamedIn(body), ctx.state, ctx.sim.profile) !== null,
    },
    summary: 'Run one query or a batch (read:data; uptime types read:monitors). Public types on a public website need no credential.',
    query: queryParams,
    responses: {
      200: { description: 'One result (single query) or `results` (batch); failed parameters come last', schema: z.union([queryResponseSchema, batchResponseSchema]) },
    },
    limit: 'query:execute',
    body: queryBodySchema,
    authorize(ctx, body): QueryScope | SimError {
      const scope = resolveQueryScope(ctx.principal, ctx.query, typesNamedIn(body), ctx.state, ctx.sim.profile);
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
        if (followsLive(ctx.sim.profile, 'validation')) {
          ctx.warn({ field: 'batch', message: `A batch of ${queries.length} queries is over SPEC's ${MAX_BATCH_QUERIES}; answered whole, as the service has no cap` });
        } else {
          details.push({ field: 'batch', message: `A batch holds at most ${MAX_BATCH_QUERIES} queries` });
        }
      }
      if (details.length > 0) return validationError(details);
      const tz = ctx.query.timezone ?? 'UTC';
      const options = { profile: ctx.sim.profile, warn: ctx.warn };
      const plans = queries.map((query, i) => planRemembered(query, Array.isArray(body) ? `batch[${i}].` : '', ctx.now, tz, details, options));
      if (details.length > 0) return validationError(details);
      warnIgnoredQueryParts(ctx, queries, plans as QueryPlan[], Array.isArray(body));
      const overBudget = checkWorkBudget(plans as QueryPlan[], scope.kind === 'websites' ? weighWebsites(scope.websites) : SINGLE_SCOPE, Array.isArray(body));
      if (overBudget) return validationError([overBudget]);
      return plans as QueryPlan[];
    },
    handle(ctx, body, scope, plans) {
      const head = `{"success":true,"requestId":${JSON.stringify(ctx.requestId)},`;
      const single = !Array.isArray(body);
      const { answers } = ctx.state;
      // A single query asked again (same body, scope and minute, no data changed): the answer it got.
      const lookup = single ? answers.read(plans[0] as QueryPlan, scope, ctx.now) : undefined;
      if (lookup?.text !== undefined) return jsonText(`${head}${lookup.text}}`);
      let warned = false;
      const env = {
        now: ctx.now,
        timezone: ctx.query.timezone ?? 'UTC',
        traffic: ctx.state.traffic,
        dictionaries: ctx.state.dictionaries.current(),
        cache: ctx.state.results,
        events: ctx.state.trackedEvents,
        ingested: ctx.state.ingested,
        profiles: ctx.state.profiles,
        profile: ctx.sim.profile,
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
      if (single && !needsPieces(plans, scope, ctx.now)) return answered(serializeResult(executeQuery(plans[0] as QueryPlan, scope, env, scopeText)));
      // A batch is answered query by query, and a long parameter's days are generated in pieces
      // before its pass, letting other requests run in between. The work keeps the websites it
      // planned with; a change that clears the caches meanwhile (a website's traffic size, a
      // monitor) must not have them refilled from those, so it works on pinned caches.
      const pinned = { ...env, traffic: env.traffic.pin(), cache: env.cache.pin() };
      const pause = (): Promise<void> => ctx.sim.yieldToEventLoop();
      const prepare = (parameter: ParameterPlan): Promise<void> => prefetchTraffic(parameter, scope, pinned.traffic, pinned.dictionaries, ctx.now, pause);
      return (async () => {
        const results: string[] = [];
        for (const plan of plans) {
          if (results.length > 0) await pause();
          results.push(serializeResult(await executeQueryInPieces(plan, scope, pinned, pause, prepare, scopeText)));
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
    access: { kind: 'key', scope: 'read:data' },
    summary: 'Compile a query to SQL and parameters without running it (read:data).',
    query: compileParams,
    responses: { 200: { description: 'ClickHouse-style SQL and its parameters', schema: compileResponseSchema } },
    limit: 'query:compile',
    body: compileRequestSchema,
    authorize(ctx): undefined | SimError {
      const { principal } = ctx;
      const websiteId = ctx.query.website_id;
      if (websiteId !== undefined) {
        const website = ctx.state.websites.get(websiteId);
        return website && canReachWebsite(principal, website) ? undefined : accessDenied('website');
      }
      return defaultOrganization(principal) === null ? missingProjectId() : undefined;
    },
    handle(ctx, body) {
      // validation: live's body schema has `type` as an enum of every registry key, so an
      // unknown type is 422 VALIDATION there (spec: 400 COMPILATION_ERROR).
      if (followsLive(ctx.sim.profile, 'validation') && !findQueryType(body.type)) {
        ctx.warn({ field: 'type', message: `Unknown query type ${body.type.slice(0, 64)}: 422 VALIDATION, as the service's schema refuses it` });
        return schemaValidation([{ field: 'type', message: 'Invalid value' }]);
      }
      const compiled = compileQuery(body, ctx.query.timezone ?? 'UTC');
      if ('code' in compiled) return compiled;
      return ok({ success: true, requestId: ctx.requestId, sql: compiled.sql, params: compiled.params });
    },
  }),
];
