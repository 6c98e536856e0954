import { QUERY_TYPE_NAMES, QUERY_TYPES } from '../query/registry.js';
import { z } from 'zod';
import { errorBodySchema, rateLimitBodySchema } from '../../contract/errors.js';
import { changesState, type Route } from '../routing/route.js';

/** A JSON Schema object as OpenAPI 3.1 embeds it. */
type JsonSchema = Record<string, unknown>;

/** JSON Schema (2020-12, the dialect of OpenAPI 3.1) of a zod schema, as clients send it. */
function schemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const ERROR = { $ref: '#/components/schemas/Error' };
const RATE_LIMITED = { $ref: '#/components/schemas/RateLimited' };

function errorResponse(description: string, schema: JsonSchema = ERROR) {
  return { description, content: { 'application/json': { schema } } };
}

const CREDENTIALS = [{ ApiKeyHeader: [] }, { BearerAuth: [] }, { SessionCookie: [] }];

/** The security requirement of a route's declared access (`{}`: no credential is one option). */
function securityOf(route: Route): unknown[] {
  switch (route.access.kind) {
    case 'public':
    case 'control':
      return [];
    case 'key':
      return CREDENTIALS;
    case 'ingest':
      return [{ ApiKeyHeader: [] }, { BearerAuth: [] }, {}];
  }
}

/** What the description says of the declared access. */
function accessNote(route: Route): string | null {
  const { access } = route;
  if (access.kind === 'key') {
    const open = access.publicWhen ? ' Public data of a public website needs no credential.' : '';
    const more = access.scopesFor ? ' Some parameters need further scopes.' : '';
    return `Requires the \`${access.scope}\` scope when called with an API key.${more}${open}`;
  }
  if (access.kind === 'ingest') return `Requires the \`${access.scope}\` scope when called with an API key; without one, the request names its website.`;
  return null;
}

function operationId(route: Route): string {
  const words = `${route.method.toLowerCase()} ${route.path}`.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
}

function operation(route: Route): Record<string, unknown> {
  const parameters: unknown[] = [];
  for (const name of route.path.split('/').filter((s) => s.startsWith(':'))) {
    parameters.push({ name: name.slice(1), in: 'path', required: true, schema: { type: 'string' } });
  }
  if (route.query) {
    for (const [name, field] of Object.entries(route.query.shape)) {
      const schema = schemaOf(field as z.ZodType);
      parameters.push({
        name,
        in: 'query',
        required: !(field as z.ZodType).safeParse(undefined).success,
        schema,
        ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
      });
    }
  }
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(route.responses ?? { 200: { description: 'Success' } })) {
    responses[status] = answer.schema
      ? { description: answer.description, content: { 'application/json': { schema: schemaOf(answer.schema) } } }
      : answer.contentType
        ? { description: answer.description, content: { [answer.contentType]: { schema: { type: 'string' } } } }
        : { description: answer.description };
  }
  if (route.rawBody) responses['413'] ??= errorResponse('The body is over 1 MB (PAYLOAD_TOO_LARGE)');
  if (route.body) {
    responses['400'] ??= errorResponse('Malformed JSON (PARSE) or invalid values (VALIDATION_ERROR), with details');
    responses['413'] ??= errorResponse('The body is over 1 MB (PAYLOAD_TOO_LARGE)');
    if (!route.bodyError) responses['422'] ??= errorResponse('The body does not have the schema’s shape (VALIDATION), with details naming the fields');
  }
  if (route.query) {
    responses['400'] ??= errorResponse('A query-string parameter is not usable (VALIDATION_ERROR), with details naming it');
  }
  if (route.access.kind === 'key' || route.access.kind === 'ingest') {
    responses['401'] ??= errorResponse('No credential was accepted (AUTH_REQUIRED); a hint says why');
    responses['403'] ??= errorResponse('A scope is missing (FORBIDDEN) or the resource is out of reach (ACCESS_DENIED)');
    responses['429'] ??= errorResponse('A rate limit, the per-key quota or the concurrency cap refused the request (RATE_LIMITED)', RATE_LIMITED);
    responses['503'] ??= errorResponse('Admission is unavailable (SERVICE_UNAVAILABLE); retry after Retry-After seconds');
  }
  if (route.access.kind === 'control') {
    responses['401'] ??= errorResponse('The simulator serves a non-loopback host and the request lacks its control token, `Authorization: Bearer <token>` (AUTH_REQUIRED)');
    responses['403'] ??= errorResponse('A cross-site Origin, or a Host name that is not a loopback one (FORBIDDEN)');
    if (route.body) responses['415'] ??= errorResponse('A body not declared as JSON (UNSUPPORTED_MEDIA_TYPE)');
  }
  if (changesState(route)) {
    const erased =
      'With a shared store (`--store redis://…`), the request was erased from the shared log by a reset, or by a store that lost its data, before it could be applied (CONFLICT): nothing of it took effect; send it again';
    const declared = responses['409'] as { description: string } | undefined;
    responses['409'] = declared === undefined ? errorResponse(erased) : { ...declared, description: `${declared.description}. ${erased}` };
  }
  const security = securityOf(route);
  const note = accessNote(route);
  return {
    operationId: operationId(route),
    summary: route.summary,
    tags: [route.family],
    ...(note ? { description: note } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? { requestBody: { required: !route.bodyOptional, content: { 'application/json': { schema: schemaOf(route.body) } } } }
      : route.rawBody
        ? { requestBody: { required: true, description: route.rawBody.description, content: { 'application/json': { schema: schemaOf(route.rawBody.schema) } } } }
        : {}),
    responses,
    ...(security !== undefined ? { security } : {}),
  };
}

const JSON_TYPE: Record<string, string> = { integer: 'integer', number: 'number', string: 'string', boolean: 'boolean', array: 'array', object: 'object' };

/**
 * The row of each query type as JSON Schema, keyed by type name: its live fields, in order,
 * each with its JSON type (nullable ones also null). Under the spec profile the types with a
 * SPEC.md shape (`spec` fields) answer that shape instead; `/v1/query/types` says which.
 */
function queryRowSchemas(): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const type of QUERY_TYPES) {
    const properties: Record<string, JsonSchema> = {};
    for (const [field, kind] of Object.entries(type.fields)) {
      const base = JSON_TYPE[kind.replace('?', '')] ?? 'string';
      properties[field] = { type: kind.endsWith('?') ? [base, 'null'] : base };
    }
    schemas[type.name] = { type: 'object', properties, required: Object.keys(type.fields), additionalProperties: false };
  }
  return schemas;
}

/**
 * The OpenAPI 3.1 document of every route in the table, generated from the same zod schemas
 * that validate requests. `baseUrl` is the server clients reached.
 */
export function buildOpenApiDocument(routes: readonly Route[], baseUrl: string, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.method === 'HEAD') continue;
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'analytics-sim',
      version,
      description:
        'A local, deterministic simulator of a web-analytics Query API (scoped API keys, rate limits, ingestion, management) and its /__sim harness control plane.',
    },
    servers: [{ url: baseUrl }],
    tags: [
      { name: 'query', description: 'The Query API: query types, batches, filters, date ranges' },
      { name: 'ingest', description: 'Event ingestion' },
      { name: 'manage', description: 'Management routes' },
      { name: 'discovery', description: 'Discovery documents and health' },
      { name: 'control', description: 'The /__sim harness control plane (not part of the simulated service)' },
    ],
    paths,
    components: {
      schemas: {
        Error: schemaOf(errorBodySchema),
        RateLimited: schemaOf(rateLimitBodySchema),
        QueryType: { type: 'string', enum: [...QUERY_TYPE_NAMES], description: 'A query type name (parameters[] of POST /v1/query)' },
      },
      'x-query-rows': queryRowSchemas(),
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        BearerAuth: { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token' },
        SessionCookie: { type: 'apiKey', in: 'cookie', name: 'databuddy.session_token' },
      },
    },
  };
}
