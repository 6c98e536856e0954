import { z } from 'zod';
import { VERSION } from '../../version.js';
import { defineRoute, jsonText, ok } from '../routing/route.js';
import { API_CATALOG_TYPE, buildApiCatalog } from './api-catalog.js';
import { buildAuthMarkdown } from './auth-markdown.js';
import { requestOrigin } from './base-url.js';
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

/** Discovery documents (SPEC 5.1.4) and the service health, public. */
export const discoveryRoutes = [
  defineRoute({
    method: 'GET',
    path: '/health',
    family: 'discovery',
    access: { kind: 'public' },
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
  defineRoute({
    method: 'GET',
    path: '/.well-known/api-catalog',
    family: 'discovery',
    access: { kind: 'public' },
    summary: 'RFC 9727 API catalog: links to the API, its OpenAPI description, auth.md and health.',
    responses: { 200: { description: 'An RFC 9727 linkset' } },
    handle: (ctx) => ({
      reply: true,
      status: 200,
      body: undefined,
      text: JSON.stringify(buildApiCatalog(requestOrigin(ctx.request)), null, 2),
      contentType: API_CATALOG_TYPE,
      headers: { 'Cache-Control': 'public, max-age=3600, must-revalidate', Link: '</.well-known/api-catalog>; rel="api-catalog"' },
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/openapi.json',
    family: 'discovery',
    access: { kind: 'public' },
    summary: 'The OpenAPI 3.1 description of every route, generated from the request and response schemas.',
    responses: { 200: { description: 'An OpenAPI 3.1 document' } },
    handle: (ctx) => jsonText(JSON.stringify(buildOpenApiDocument(ctx.sim.routes, requestOrigin(ctx.request), VERSION))),
  }),
  defineRoute({
    method: 'GET',
    path: '/auth.md',
    family: 'discovery',
    access: { kind: 'public' },
    summary: 'How to get, send and revoke a credential for this simulator (Markdown).',
    responses: { 200: { description: 'Markdown' } },
    handle: (ctx) => ({
      reply: true,
      status: 200,
      body: undefined,
      text: buildAuthMarkdown(requestOrigin(ctx.request)),
      contentType: 'text/markdown; charset=utf-8',
    }),
  }),
];
