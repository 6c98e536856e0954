import { mcpBodySchema, mcpResponseSchema, type McpCallInput } from '../../contract/ingest.js';
import { mcpRule } from '../admission/rules.js';
import { basketError, eventStorageFull, invalidEventSchema, type SimError } from '../errors.js';
import type { ApiKeyRecord } from '../model/entities.js';
import { ok, type RouteContext } from '../routing/route.js';
import { defineIngestRoute } from './ingest-route.js';
import { basketRefusal, createBasketEnvelope, INGEST_PIPELINE_KEYS } from './basket-envelope.js';
import { organizationOwner } from './event-store.js';
import { MCP_CALLS, storedMcpCall, type IngestedMcpCall } from './mcp-calls.js';
import { BASKET_TOO_LARGE } from './client-id-auth.js';

/**
 * Every refusal of `/mcp` in the ingestion envelope: no usable API key is
 * MCP_INVALID_API_KEY, a key without track:events TRACK_MISSING_SCOPE, the window
 * TRACK_RATE_LIMITED (as the service raises it for this route).
 */
const asMcpEnvelope = createBasketEnvelope({
  ...INGEST_PIPELINE_KEYS,
  AUTH_REQUIRED: 'MCP_INVALID_API_KEY',
  FORBIDDEN: 'TRACK_MISSING_SCOPE',
  RATE_LIMITED: 'TRACK_RATE_LIMITED',
});

type McpQuery = Readonly<Record<string, string | undefined>>;

/**
 * The websites the calls name, checked as the service's `denyApiKeyWebsiteAccess` checks each:
 * a website-restricted key must list it (403 TRACK_MISSING_SCOPE), it must exist (404) and
 * belong to the key's organization (403 TRACK_WEBSITE_SCOPE_MISMATCH). Calls without a
 * websiteId belong to the key's organization (the pipeline has checked track:events).
 */
function checkWebsites(ctx: RouteContext<McpQuery>, key: ApiKeyRecord, calls: readonly McpCallInput[]): SimError | null {
  for (const id of new Set(calls.flatMap((call) => (call.websiteId === undefined ? [] : [call.websiteId])))) {
    if (key.websiteIds !== null && !key.websiteIds.includes(id)) return basketError('TRACK_MISSING_SCOPE');
    const website = ctx.state.websites.get(id);
    if (!website) return basketError('TRACK_WEBSITE_NOT_FOUND');
    if (website.organizationId !== key.organizationId) return basketError('TRACK_WEBSITE_SCOPE_MISMATCH');
  }
  return null;
}

/** MCP tool-call telemetry (live `apps/basket/src/routes/track.ts`, `POST /mcp`; no SPEC.md counterpart). */
export const mcpRoutes = [
  defineIngestRoute<McpCallInput[], ApiKeyRecord, ReadonlyMap<string, IngestedMcpCall[]>, McpQuery>({
    method: 'POST',
    path: '/mcp',
    access: { kind: 'key', scope: 'track:events' },
    summary:
      'Report 1 to 100 MCP tool calls (what @databuddy/sdk/mcp sends): an API key with track:events; calls name their website or belong to the key’s organization. 6000 requests per 60 s per key. They feed the mcp_* query types. Refusals use the ingestion service’s envelope.',
    body: mcpBodySchema,
    bodyError: invalidEventSchema,
    shapeRefusal: asMcpEnvelope,
    responses: {
      202: { description: 'The calls were accepted; `count` says how many', schema: mcpResponseSchema },
      400: basketRefusal('The body is not an array of 1 to 100 calls of the accepted shape (basket.INVALID_EVENT_SCHEMA)'),
      401: basketRefusal('No usable API key: none, or unknown, disabled, revoked or expired (basket.MCP_INVALID_API_KEY)'),
      403: basketRefusal('The key lacks track:events or does not reach a website a call names (basket.TRACK_MISSING_SCOPE), or that website belongs to another organization (basket.TRACK_WEBSITE_SCOPE_MISMATCH)'),
      404: basketRefusal('A website a call names does not exist (basket.TRACK_WEBSITE_NOT_FOUND)'),
      413: BASKET_TOO_LARGE,
      429: basketRefusal('Over 6000 requests in 60 s for this key (basket.TRACK_RATE_LIMITED)'),
      503: basketRefusal('The simulator’s record storage is full (basket.DELIVERY_UNAVAILABLE), or admission is unavailable'),
    },
    authorize(ctx) {
      // A dashboard session is not an API key: the route reads keys only.
      return ctx.principal.kind === 'apikey' ? ctx.principal.key : basketError('MCP_INVALID_API_KEY');
    },
    windowRule: (key) => mcpRule(key.id),
    validate(ctx, calls, key) {
      const refused = checkWebsites(ctx, key, calls);
      if (refused) return refused;
      const groups = new Map<string, IngestedMcpCall[]>();
      for (const call of calls) {
        const stored = storedMcpCall(call, ctx.now);
        const owner = stored.websiteId ?? organizationOwner(key.organizationId);
        const list = groups.get(owner);
        if (list) list.push(stored);
        else groups.set(owner, [stored]);
      }
      return groups;
    },
    handle(ctx, calls, _key, groups) {
      const ledger = ctx.state.ingested;
      const appended = ledger.appendGroups(MCP_CALLS, groups);
      if (!appended.ok) {
        return eventStorageFull(`The simulator keeps at most ${ledger.limits.maxRecords} ingested records (${ledger.limits.maxChars} characters); these ${calls.length} calls were not stored. Reset it (POST /__sim/reset).`);
      }
      return ok({ status: 'success', count: calls.length }, 202);
    },
  }),
];
