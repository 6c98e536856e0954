import { describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../src/contract/scopes.js';
import { PUBLIC_ROUTES } from '../../src/sim/routing/public-routes.js';
import { documentedScope } from '../../src/sim/routing/route.js';
import type { Simulator } from '../../src/index.js';
import { call, freshSimulator, type Answer } from '../helpers/sim.js';

interface Example {
  readonly path: string;
  readonly query?: Record<string, string>;
  readonly body?: unknown;
}

const INCIDENT = '/v1/status-pages/sp_acme_status/incidents/inc_acme_api_latency';

/**
 * A valid request for every protected route, on Acme resources. The table must name every
 * protected route of the route table: a new route without an example fails the first test.
 */
const EXAMPLES: Record<string, Example> = {
  'GET /v1/query/websites': { path: '/v1/query/websites' },
  'POST /v1/query': { path: '/v1/query', query: { website_id: 'web_acme_www' }, body: { parameters: ['summary_metrics'], preset: 'today' } },
  'POST /v1/query/compile': { path: '/v1/query/compile', query: { website_id: 'web_acme_www' }, body: { projectId: 'web_acme_www', type: 'top_pages', from: '2025-05-01', to: '2025-05-31' } },
  'POST /track': { path: '/track', query: { website_id: 'web_acme_www' }, body: { name: 'signup', timestamp: Date.UTC(2025, 5, 2, 11) } },
  'POST /identify': { path: '/identify', body: { profileId: 'user_1', websiteId: 'web_acme_www' } },
  'POST /mcp': { path: '/mcp', body: [{ tool: 'search', durationMs: 12, websiteId: 'web_acme_www' }] },
  'GET /v1/websites': { path: '/v1/websites' },
  'POST /v1/websites': { path: '/v1/websites', body: { name: 'New site', domain: 'new.acme.io' } },
  'GET /v1/websites/:id': { path: '/v1/websites/web_acme_www' },
  'PATCH /v1/websites/:id': { path: '/v1/websites/web_acme_www', body: { name: 'Renamed' } },
  'DELETE /v1/websites/:id': { path: '/v1/websites/web_acme_www' },
  'GET /v1/links': { path: '/v1/links' },
  'POST /v1/links': { path: '/v1/links', body: { targetUrl: 'https://acme.io/' } },
  'GET /v1/links/:id': { path: '/v1/links/link_acme_launch' },
  'PATCH /v1/links/:id': { path: '/v1/links/link_acme_launch', body: { title: 'Renamed' } },
  'DELETE /v1/links/:id': { path: '/v1/links/link_acme_launch' },
  'GET /v1/monitors': { path: '/v1/monitors' },
  'POST /v1/monitors': { path: '/v1/monitors', body: { name: 'New', url: 'https://acme.io/' } },
  'GET /v1/monitors/:id': { path: '/v1/monitors/mon_acme_api' },
  'PATCH /v1/monitors/:id': { path: '/v1/monitors/mon_acme_api', body: { name: 'Renamed' } },
  'DELETE /v1/monitors/:id': { path: '/v1/monitors/mon_acme_api' },
  'POST /v1/monitors/:id/pause': { path: '/v1/monitors/mon_acme_api/pause' },
  'POST /v1/monitors/:id/resume': { path: '/v1/monitors/mon_acme_api/resume' },
  'GET /v1/status-pages': { path: '/v1/status-pages' },
  'POST /v1/status-pages': { path: '/v1/status-pages', body: { name: 'New', slug: 'new-page' } },
  'GET /v1/status-pages/:id': { path: '/v1/status-pages/sp_acme_status' },
  'PATCH /v1/status-pages/:id': { path: '/v1/status-pages/sp_acme_status', body: { name: 'Renamed' } },
  'DELETE /v1/status-pages/:id': { path: '/v1/status-pages/sp_acme_status' },
  'GET /v1/status-pages/:id/monitors': { path: '/v1/status-pages/sp_acme_status/monitors' },
  'PUT /v1/status-pages/:id/monitors': { path: '/v1/status-pages/sp_acme_status/monitors', body: { monitorIds: [] } },
  'GET /v1/status-pages/:id/incidents': { path: '/v1/status-pages/sp_acme_status/incidents' },
  'POST /v1/status-pages/:id/incidents': { path: '/v1/status-pages/sp_acme_status/incidents', body: { title: 'T', message: 'M' } },
  'GET /v1/status-pages/:id/incidents/:incidentId': { path: INCIDENT },
  'PATCH /v1/status-pages/:id/incidents/:incidentId': { path: INCIDENT, body: { impact: 'major' } },
  'POST /v1/status-pages/:id/incidents/:incidentId/updates': { path: `${INCIDENT}/updates`, body: { message: 'M' } },
  'DELETE /v1/status-pages/:id/incidents/:incidentId': { path: INCIDENT },
  'GET /v1/flags': { path: '/v1/flags' },
  'POST /v1/flags': { path: '/v1/flags', body: { key: 'new-flag' } },
  'GET /v1/flags/:id': { path: '/v1/flags/flag_acme_dark_mode' },
  'PATCH /v1/flags/:id': { path: '/v1/flags/flag_acme_dark_mode', body: { enabled: false } },
  'DELETE /v1/flags/:id': { path: '/v1/flags/flag_acme_dark_mode' },
  'GET /v1/organization/settings': { path: '/v1/organization/settings' },
  'PATCH /v1/organization/settings': { path: '/v1/organization/settings', body: { dataRetentionDays: 60 } },
};

/**
 * Routes that refuse in the ingestion service's envelope: what they answer without a credential
 * (a route that also takes a client id names the missing one) and to a key without the scope.
 */
const BASKET_REFUSALS: Record<string, { readonly unauthenticated: readonly [number, string]; readonly forbidden: readonly [number, string] }> = {
  'POST /identify': { unauthenticated: [400, 'basket.INGEST_MISSING_CLIENT_ID'], forbidden: [403, 'basket.TRACK_MISSING_SCOPE'] },
  'POST /mcp': { unauthenticated: [401, 'basket.MCP_INVALID_API_KEY'], forbidden: [403, 'basket.TRACK_MISSING_SCOPE'] },
};

const PROTECTED = PUBLIC_ROUTES.filter((r) => r.access.kind === 'key' || r.access.kind === 'ingest');

/** Creates a global Acme key with the given scopes through the control plane; returns its secret. */
async function keyWith(sim: Simulator, scopes: readonly Scope[]): Promise<string> {
  const created = await call(sim, 'POST', '/__sim/keys', { body: { name: 'scope matrix', organizationId: 'org_acme', scopes } });
  expect(created.status).toBe(201);
  return created.json.secret as string;
}

function send(sim: Simulator, method: string, example: Example, key?: string): Promise<Answer> {
  return call(sim, method, example.path, {
    ...(example.query ? { query: example.query } : {}),
    ...(example.body !== undefined ? { body: example.body } : {}),
    ...(key ? { key } : {}),
  });
}

describe('the scope matrix', () => {
  it('has an example request for every protected route and a scope on each', () => {
    const missing = PROTECTED.map((r) => `${r.method} ${r.path}`).filter((name) => !EXAMPLES[name]);
    expect(missing).toEqual([]);
    expect(PROTECTED.filter((r) => !documentedScope(r)).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect(PROTECTED.length).toBeGreaterThanOrEqual(40);
  });

  describe.each(PROTECTED.map((r) => [`${r.method} ${r.path}`, r.method, documentedScope(r) as Scope] as const))('%s', (name, method, scope) => {
    const example = EXAMPLES[name] as Example;
    const [unauthenticatedStatus, unauthenticatedCode] = BASKET_REFUSALS[name]?.unauthenticated ?? [401, 'AUTH_REQUIRED'];
    const [forbiddenStatus, forbiddenCode] = BASKET_REFUSALS[name]?.forbidden ?? [403, 'FORBIDDEN'];

    it(`answers ${unauthenticatedStatus} ${unauthenticatedCode} without a credential`, async () => {
      const example401 = name === 'POST /track' ? { ...example, query: {} } : example;
      const answer = await send(freshSimulator(), method, example401);
      expect(answer.status).toBe(unauthenticatedStatus);
      expect(answer.json.code).toBe(unauthenticatedCode);
    });

    it(`answers ${forbiddenStatus} ${forbiddenCode} to a key with every scope but ${scope}`, async () => {
      const sim = freshSimulator();
      const answer = await send(sim, method, example, await keyWith(sim, SCOPES.filter((s) => s !== scope)));
      expect(answer.status).toBe(forbiddenStatus);
      expect(answer.json.code).toBe(forbiddenCode);
    });

    it(`answers a key holding only ${scope} with success`, async () => {
      const sim = freshSimulator();
      const answer = await send(sim, method, example, await keyWith(sim, [scope]));
      expect([200, 201, 202, 204]).toContain(answer.status);
    });
  });
});
