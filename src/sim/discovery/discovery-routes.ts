import { z } from 'zod';
import { VERSION } from '../../version.js';
import { defineRouteGroup, jsonText, ok, uses, type Reply, type Route } from '../routing/route.js';
import { API_CATALOG_TYPE, buildApiCatalog } from './api-catalog.js';
import { buildAuthMarkdown } from './auth-markdown.js';
import { requestBaseUrl } from './base-url.js';
import { buildOpenApiDocument } from './openapi.js';

const healthSchema = z.object({
  success: z.literal(true),
  status: z.literal('ok'),
  version: z.string(),
  timestamp: z.string(),
  clickhouse: z.boolean(),
  database: z.boolean(),
  redis: z.boolean(),
});

const dependencySchema = z.object({ status: z.enum(['ok', 'error']), latency_ms: z.number(), code: z.literal('UNAVAILABLE').optional() });

/** `GET /health/status` of the ingestion service: each dependency's state. */
const ingestHealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  services: z.object({ clickhouse: dependencySchema, redis: dependencySchema, redpanda: dependencySchema }),
});

/** What a discovery route uses beyond its context: every route of the simulator, for the OpenAPI document. */
export interface DiscoveryServices {
  readonly routes: readonly Route[];
}

/** A discovery route: public, no credential read; its context carries the route list (`ctx.routes`). */
const defineDiscoveryRoute = defineRouteGroup({ family: 'discovery', access: { kind: 'public' } }, uses<DiscoveryServices>());

/** A discovery document: `text` sent as `contentType` (200), with `headers` when given. */
function documentReply(text: string, contentType: string, headers?: Record<string, string>): Reply {
  return { reply: true, status: 200, body: undefined, text, contentType, ...(headers ? { headers } : {}) };
}

/** Discovery documents (SPEC 5.1.4) and the service health, public. */
export const discoveryRoutes = [
  defineDiscoveryRoute({
    method: 'GET',
    path: '/health',
    summary: 'Service health, as the live API reports it (the timestamp is the simulator clock).',
    responses: { 200: { description: 'Healthy', schema: healthSchema } },
    handle: (ctx) =>
      ok({
        success: true,
        status: 'ok',
        version: VERSION,
        timestamp: new Date(ctx.now).toISOString(),
        clickhouse: true,
        database: true,
        redis: true,
      }),
  }),
  defineDiscoveryRoute({
    method: 'GET',
    path: '/health/status',
    summary:
      'The ingestion service’s dependency health: ClickHouse, Redis and Redpanda, each ok with its latency (the simulator has none of them, so all are ok in 0 ms; a scenario outage on this route gives the 503).',
    responses: { 200: { description: 'Every dependency answered', schema: ingestHealthSchema } },
    handle: () =>
      ok({
        status: 'ok',
        services: {
          clickhouse: { status: 'ok', latency_ms: 0 },
          redis: { status: 'ok', latency_ms: 0 },
          redpanda: { status: 'ok', latency_ms: 0 },
        },
      }),
  }),
  defineDiscoveryRoute({
    method: 'GET',
    path: '/.well-known/api-catalog',
    summary: 'RFC 9727 API catalog: links to the API, its OpenAPI description, auth.md and health.',
    responses: { 200: { description: 'An RFC 9727 linkset' } },
    handle: (ctx) =>
      documentReply(JSON.stringify(buildApiCatalog(requestBaseUrl(ctx.request)), null, 2), API_CATALOG_TYPE, {
        'Cache-Control': 'public, max-age=3600, must-revalidate',
        Link: '</.well-known/api-catalog>; rel="api-catalog"',
      }),
  }),
  defineDiscoveryRoute({
    method: 'GET',
    path: '/openapi.json',
    summary: 'The OpenAPI 3.1 description of every route, generated from the request and response schemas.',
    responses: { 200: { description: 'An OpenAPI 3.1 document' } },
    handle: (ctx) => jsonText(JSON.stringify(buildOpenApiDocument(ctx.routes, requestBaseUrl(ctx.request), VERSION))),
  }),
  defineDiscoveryRoute({
    method: 'GET',
    path: '/auth.md',
    summary: 'How to get, send and revoke a credential for this simulator (Markdown).',
    responses: { 200: { description: 'Markdown' } },
    handle: (ctx) => documentReply(buildAuthMarkdown(requestBaseUrl(ctx.request)), 'text/markdown; charset=utf-8'),
  }),
];
