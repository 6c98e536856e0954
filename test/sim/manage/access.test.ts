import { describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../../src/contract/scopes.js';
import { as, manageSimulator, onlyScope, refusal, type Who } from './support.js';

interface Probe {
  readonly scope: Scope;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
  /** Lists answer every caller of the organization; the others name a resource or create one. */
  readonly kind: 'list' | 'item' | 'create' | 'organization';
  readonly status: 200 | 201;
}

const INCIDENT = '/v1/status-pages/sp_acme_status/incidents/inc_acme_api_latency';

/** Every management route, on Acme resources that are not attached to web_acme_store. */
const PROBES: readonly Probe[] = [
  { scope: 'manage:websites', method: 'GET', path: '/v1/websites', kind: 'list', status: 200 },
  { scope: 'manage:websites', method: 'POST', path: '/v1/websites', body: { name: 'N', domain: 'n.acme.io' }, kind: 'create', status: 201 },
  { scope: 'manage:websites', method: 'GET', path: '/v1/websites/web_acme_www', kind: 'item', status: 200 },
  { scope: 'manage:websites', method: 'PATCH', path: '/v1/websites/web_acme_www', body: { name: 'N' }, kind: 'item', status: 200 },
  { scope: 'manage:websites', method: 'DELETE', path: '/v1/websites/web_acme_www', kind: 'item', status: 200 },
  { scope: 'read:links', method: 'GET', path: '/v1/links', kind: 'list', status: 200 },
  { scope: 'read:links', method: 'GET', path: '/v1/links/link_acme_launch', kind: 'item', status: 200 },
  { scope: 'write:links', method: 'POST', path: '/v1/links', body: { targetUrl: 'https://acme.io/' }, kind: 'create', status: 201 },
  { scope: 'write:links', method: 'PATCH', path: '/v1/links/link_acme_launch', body: { title: 'N' }, kind: 'item', status: 200 },
  { scope: 'write:links', method: 'DELETE', path: '/v1/links/link_acme_launch', kind: 'item', status: 200 },
  { scope: 'read:monitors', method: 'GET', path: '/v1/monitors', kind: 'list', status: 200 },
  { scope: 'read:monitors', method: 'GET', path: '/v1/monitors/mon_acme_api', kind: 'item', status: 200 },
  { scope: 'write:monitors', method: 'POST', path: '/v1/monitors', body: { name: 'N', url: 'https://acme.io/' }, kind: 'create', status: 201 },
  { scope: 'write:monitors', method: 'PATCH', path: '/v1/monitors/mon_acme_api', body: { name: 'N' }, kind: 'item', status: 200 },
  { scope: 'write:monitors', method: 'DELETE', path: '/v1/monitors/mon_acme_api', kind: 'item', status: 200 },
  { scope: 'write:monitors', method: 'POST', path: '/v1/monitors/mon_acme_api/pause', kind: 'item', status: 200 },
  { scope: 'write:monitors', method: 'POST', path: '/v1/monitors/mon_acme_api/resume', kind: 'item', status: 200 },
  { scope: 'read:status_pages', method: 'GET', path: '/v1/status-pages', kind: 'list', status: 200 },
  { scope: 'read:status_pages', method: 'GET', path: '/v1/status-pages/sp_acme_status', kind: 'item', status: 200 },
  { scope: 'read:status_pages', method: 'GET', path: '/v1/status-pages/sp_acme_status/monitors', kind: 'item', status: 200 },
  { scope: 'read:status_pages', method: 'GET', path: '/v1/status-pages/sp_acme_status/incidents', kind: 'item', status: 200 },
  { scope: 'read:status_pages', method: 'GET', path: INCIDENT, kind: 'item', status: 200 },
  { scope: 'write:status_pages', method: 'POST', path: '/v1/status-pages', body: { name: 'N', slug: 'n' }, kind: 'create', status: 201 },
  { scope: 'write:status_pages', method: 'PATCH', path: '/v1/status-pages/sp_acme_status', body: { name: 'N' }, kind: 'item', status: 200 },
  { scope: 'write:status_pages', method: 'DELETE', path: '/v1/status-pages/sp_acme_status', kind: 'item', status: 200 },
  { scope: 'write:status_pages', method: 'PUT', path: '/v1/status-pages/sp_acme_status/monitors', body: { monitorIds: [] }, kind: 'item', status: 200 },
  { scope: 'write:status_pages', method: 'POST', path: '/v1/status-pages/sp_acme_status/incidents', body: { title: 'T', message: 'M' }, kind: 'item', status: 201 },
  { scope: 'write:status_pages', method: 'PATCH', path: INCIDENT, body: { impact: 'major' }, kind: 'item', status: 200 },
  { scope: 'write:status_pages', method: 'POST', path: `${INCIDENT}/updates`, body: { message: 'M' }, kind: 'item', status: 201 },
  { scope: 'write:status_pages', method: 'DELETE', path: INCIDENT, kind: 'item', status: 200 },
  { scope: 'manage:flags', method: 'GET', path: '/v1/flags', kind: 'list', status: 200 },
  { scope: 'manage:flags', method: 'POST', path: '/v1/flags', body: { key: 'n' }, kind: 'create', status: 201 },
  { scope: 'manage:flags', method: 'GET', path: '/v1/flags/flag_acme_dark_mode', kind: 'item', status: 200 },
  { scope: 'manage:flags', method: 'PATCH', path: '/v1/flags/flag_acme_dark_mode', body: { enabled: false }, kind: 'item', status: 200 },
  { scope: 'manage:flags', method: 'DELETE', path: '/v1/flags/flag_acme_dark_mode', kind: 'item', status: 200 },
  { scope: 'manage:config', method: 'GET', path: '/v1/organization/settings', kind: 'organization', status: 200 },
  { scope: 'manage:config', method: 'PATCH', path: '/v1/organization/settings', body: { dataRetentionDays: 60 }, kind: 'organization', status: 200 },
];

async function send(probe: Probe, who: Who, query: Record<string, string> = {}) {
  const client = as(manageSimulator(), who);
  switch (probe.method) {
    case 'GET':
      return client.get(probe.path, query);
    case 'DELETE':
      return client.delete(probe.path, query);
    case 'POST':
      return client.post(probe.path, probe.body, query);
    case 'PATCH':
      return client.patch(probe.path, probe.body, query);
    case 'PUT':
      return client.put(probe.path, probe.body, query);
  }
}

const DENIED = { status: 403, code: 'ACCESS_DENIED' };

describe.each(PROBES)('$method $path', (probe) => {
  it(`answers a key holding only ${probe.scope}, a member's session and the all-scopes key`, async () => {
    for (const who of [{ key: onlyScope(probe.scope) }, { user: 'user_alice' }, { key: 'key_acme_all' }]) {
      expect((await send(probe, who)).status).toBe(probe.status);
    }
  });

  it(`refuses every key without ${probe.scope} with 403 FORBIDDEN naming it`, async () => {
    const others = SCOPES.filter((s) => s !== probe.scope);
    for (const scope of [...others.map(onlyScope), 'key_acme_read', 'key_globex_read']) {
      const answer = await send(probe, { key: scope });
      expect(refusal(answer)).toEqual({ status: 403, code: 'FORBIDDEN' });
      expect(answer.json.hint).toBe(`This operation needs the ${probe.scope} scope.`);
    }
  });

  it('refuses a request without a credential with 401 AUTH_REQUIRED', async () => {
    const answer = await send(probe, 'anonymous');
    expect(refusal(answer)).toEqual({ status: 401, code: 'AUTH_REQUIRED' });
    expect(answer.headers['WWW-Authenticate']).toMatch(/^Bearer /);
  });

  it('denies Globex callers Acme resources with 403 ACCESS_DENIED', async () => {
    for (const who of [{ key: 'key_globex_all' }, { user: 'user_bob' }]) {
      if (probe.kind === 'item') expect(refusal(await send(probe, who))).toEqual(DENIED);
      expect(refusal(await send(probe, who, { organization_id: 'org_acme' }))).toEqual(DENIED);
    }
  });

  it(`${probe.kind === 'list' ? 'lists for' : 'denies'} a key restricted to web_acme_store`, async () => {
    const answer = await send(probe, { key: 'key_acme_store_manage' });
    if (probe.kind === 'list') expect(answer.status).toBe(200);
    else expect(refusal(answer)).toEqual(DENIED);
  });
});
