import { AGENT_HIT_LENGTHS, agentHitSchema, setupCheckResponseSchema, type AgentHit } from '../../contract/ingest.js';
import { basketError, eventStorageFull, invalidEventSchema } from '../errors.js';
import type { Website } from '../model/entities.js';
import { ok, type Reply } from '../routing/route.js';
import { defineIngestRoute } from './ingest-route.js';
import { AI_AGENT_HITS, agentOfHit, formatOfHit, setupCheckNonce } from './ai-agent-hits.js';
import { BASKET_TOO_LARGE, hostBelongsTo } from './client-id-auth.js';
import { basketRefusal, createBasketEnvelope, INGEST_PIPELINE_KEYS } from './basket-envelope.js';

/** 202 with an empty body: what the service answers every accepted hit. */
const ACCEPTED: Reply = { reply: true, status: 202, body: undefined, text: '' };

const asAiTrafficEnvelope = createBasketEnvelope(INGEST_PIPELINE_KEYS);

type NoQuery = Readonly<Record<string, string | undefined>>;

/** AI crawler and agent requests from a website's middleware (live `apps/basket/src/routes/track.ts`). */
export const aiTrafficRoutes = [
  defineIngestRoute<AgentHit, Website, undefined, NoQuery>({
    method: 'POST',
    path: '/ai-traffic',
    summary:
      'Report one request an AI crawler or agent made to a website (what the site’s middleware sends; no API key): the Host must be the website’s domain or a subdomain. A DatabuddySetupCheck/<nonce> user agent records a setup check for 120 s instead. Agents’ requests feed the ai_* query types.',
    body: agentHitSchema,
    bodyError: invalidEventSchema,
    shapeRefusal: asAiTrafficEnvelope,
    responses: {
      202: { description: 'Accepted (a setup check recorded, an agent’s request stored, or a request of no AI agent ignored): empty body' },
      400: basketRefusal('The body does not have the accepted shape (basket.INVALID_EVENT_SCHEMA)'),
      403: basketRefusal('The Host is not the website’s domain or a subdomain of it (basket.INGEST_ORIGIN_NOT_AUTHORIZED)'),
      404: basketRefusal('The website does not exist (basket.TRACK_WEBSITE_NOT_FOUND)'),
      413: BASKET_TOO_LARGE,
      503: basketRefusal('The simulator’s record storage is full (basket.DELIVERY_UNAVAILABLE)'),
    },
    authorize(ctx, hit) {
      const website = ctx.state.websites.get(hit.websiteId);
      if (!website) return basketError('TRACK_WEBSITE_NOT_FOUND');
      if (!hostBelongsTo(hit.host, website.domain)) return basketError('INGEST_ORIGIN_NOT_AUTHORIZED');
      return website;
    },
    handle(ctx, hit, website) {
      const nonce = setupCheckNonce(hit.userAgent);
      if (nonce !== null) {
        ctx.state.setupChecks.record(website.id, nonce, ctx.now);
        return ACCEPTED;
      }
      const agent = agentOfHit(hit);
      if (agent === null) {
        ctx.warn({ field: 'userAgent', message: 'No AI agent is named by this request (user agent, Signature-Agent or a markdown Accept): the service stores it as a span no query type reads, and the simulator keeps nothing' });
        return ACCEPTED;
      }
      const ledger = ctx.state.ingested;
      const appended = ledger.append(AI_AGENT_HITS, website.id, [
        {
          timestamp: ctx.now,
          agent,
          path: hit.path.slice(0, AGENT_HIT_LENGTHS.path),
          format: formatOfHit(hit.format),
          host: hit.host,
          userAgent: hit.userAgent.slice(0, AGENT_HIT_LENGTHS.userAgent),
          accept: (hit.accept ?? '').slice(0, AGENT_HIT_LENGTHS.accept),
          referrer: (hit.referrer ?? '').slice(0, AGENT_HIT_LENGTHS.referrer),
        },
      ]);
      if (!appended.ok) {
        return eventStorageFull(`The simulator keeps at most ${ledger.limits.maxRecords} ingested records (${ledger.limits.maxChars} characters); this request was not stored. Reset it (POST /__sim/reset).`);
      }
      return ACCEPTED;
    },
  }),
  defineIngestRoute<undefined, undefined, undefined, NoQuery>({
    method: 'GET',
    path: '/ai-traffic/setup-check/:websiteId/:nonce',
    summary: 'Whether a setup-check hit with this nonce reached POST /ai-traffic for the website in the last 120 s of simulator time (no credential).',
    responses: { 200: { description: '`recorded` says whether the check arrived (never for ids longer than a hit can carry)', schema: setupCheckResponseSchema } },
    handle(ctx) {
      return ok({ recorded: ctx.state.setupChecks.recorded(ctx.params.websiteId ?? '', ctx.params.nonce ?? '', ctx.now) });
    },
  }),
];
