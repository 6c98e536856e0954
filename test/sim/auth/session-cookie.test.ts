import { describe, expect, it } from 'vitest';
import { sessionCookie, SUMMARY_QUERY } from '../../helpers/credentials.js';
import { createSeededWorld } from '../../../src/fixtures/world.js';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';

const sim = freshSimulator();

interface FixtureUser {
  id: string;
  organizationIds: string[];
  activeOrganizationId: string;
  sessionToken: string;
}

/** Reads the tokens the way a harness does: through GET /__sim/fixtures. */
async function usersFromControlPlane(): Promise<Map<string, FixtureUser>> {
  const answer = await call(sim, 'GET', '/__sim/fixtures');
  expect(answer.status).toBe(200);
  return new Map((answer.json.users as FixtureUser[]).map((u) => [u.id, u]));
}

const users = await usersFromControlPlane();

function tokenOf(userId: string): string {
  const user = users.get(userId);
  if (!user) throw new Error(`no fixture user ${userId}`);
  return user.sessionToken;
}

function websiteIdsOf(answer: Answer): string[] {
  return (answer.json.websites as { id: string }[]).map((w) => w.id);
}

function withoutRequestId(answer: Answer): unknown {
  const { requestId: _requestId, ...rest } = answer.json as Record<string, unknown>;
  return rest;
}

async function keyList(keyId: string): Promise<string[]> {
  return websiteIdsOf(await call(sim, 'GET', '/v1/query/websites', { key: secretOf(sim, keyId) }));
}

describe('the dashboard session cookie', () => {
  it('lists a session token for every fixture user in GET /__sim/fixtures', () => {
    expect(users.size).toBeGreaterThanOrEqual(2);
    for (const user of users.values()) {
      expect(user.sessionToken).toMatch(/^[A-Za-z0-9]{16,}$/);
      expect(user.organizationIds).toContain(user.activeOrganizationId);
    }
  });

  it.each([
    ['user_alice', 'key_acme_read'],
    ['user_bob', 'key_globex_read'],
    ['user_carol', 'key_acme_read'],
  ])('lists the websites of the active organization of %s', async (userId, sameOrgKey) => {
    const answer = await call(sim, 'GET', '/v1/query/websites', { headers: sessionCookie(tokenOf(userId)) });
    expect(answer.status).toBe(200);
    expect(answer.json.total).toBe(answer.json.websites.length);
    const active = users.get(userId)?.activeOrganizationId;
    expect(new Set((answer.json.websites as { organizationId: string }[]).map((w) => w.organizationId))).toEqual(new Set([active]));
    expect(websiteIdsOf(answer)).toEqual(await keyList(sameOrgKey));
  });

  it("lists no websites to a session whose active organization is one its user is not a member of, or none at all", async () => {
    const elsewhere = freshSimulator({
      createWorld: (seed) => {
        const world = createSeededWorld(seed);
        const moved: Record<string, string> = { user_alice: 'org_globex', user_bob: '' };
        return { ...world, users: world.users.map((u) => (u.id in moved ? { ...u, activeOrganizationId: moved[u.id] as string } : u)) };
      },
    });
    const fixtures = (await call(elsewhere, 'GET', '/__sim/fixtures')).json as { users: FixtureUser[] };
    for (const user of fixtures.users) {
      const answer = await call(elsewhere, 'GET', '/v1/query/websites', { headers: sessionCookie(user.sessionToken) });
      expect(answer.status, user.id).toBe(200);
      if (user.id === 'user_carol') expect(websiteIdsOf(answer).length).toBeGreaterThan(0);
      else expect(answer.json, user.id).toMatchObject({ success: true, websites: [], total: 0 });
    }
  });

  it('finds the cookie among other cookies', async () => {
    const answer = await call(sim, 'GET', '/v1/query/websites', {
      headers: { cookie: `theme=dark; databuddy.session_token=${tokenOf('user_bob')}; lang=en` },
    });
    expect(answer.status).toBe(200);
    expect(websiteIdsOf(answer)).toEqual(await keyList('key_globex_read'));
  });

  it('runs a query without ids on the active organization', async () => {
    const headers = sessionCookie(tokenOf('user_carol'));
    const noId = await call(sim, 'POST', '/v1/query', { headers, body: SUMMARY_QUERY });
    const orgAcme = await call(sim, 'POST', '/v1/query', { headers, query: { organization_id: 'org_acme' }, body: SUMMARY_QUERY });
    const orgGlobex = await call(sim, 'POST', '/v1/query', { headers, query: { organization_id: 'org_globex' }, body: SUMMARY_QUERY });
    expect(noId.status).toBe(200);
    expect(orgAcme.status).toBe(200);
    expect(orgGlobex.status).toBe(200);
    expect(withoutRequestId(noId)).toEqual(withoutRequestId(orgAcme));
    expect(withoutRequestId(noId)).not.toEqual(withoutRequestId(orgGlobex));
  });

  it('runs a query without ids for Bob on Globex, the same rows as the Globex global key', async () => {
    const bySession = await call(sim, 'POST', '/v1/query', { headers: sessionCookie(tokenOf('user_bob')), body: SUMMARY_QUERY });
    const byKey = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_globex_read'), body: SUMMARY_QUERY });
    expect(bySession.status).toBe(200);
    expect(withoutRequestId(bySession)).toEqual(withoutRequestId(byKey));
  });

  it("denies a website of an organization the user is not a member of with 403 ACCESS_DENIED", async () => {
    const answer = await call(sim, 'POST', '/v1/query', {
      headers: sessionCookie(tokenOf('user_alice')),
      query: { website_id: 'web_globex_app' },
      body: SUMMARY_QUERY,
    });
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code: 'ACCESS_DENIED', error: 'Access denied to this website' });
  });

  it("denies an organization the user is not a member of with 403 ACCESS_DENIED", async () => {
    const answer = await call(sim, 'POST', '/v1/query', {
      headers: sessionCookie(tokenOf('user_alice')),
      query: { organization_id: 'org_globex' },
      body: SUMMARY_QUERY,
    });
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code: 'ACCESS_DENIED', error: 'Access denied to this organization' });
  });

  it('refuses an unknown session token with 401 AUTH_REQUIRED and a hint about the session', async () => {
    const token = 'NotARealSessionToken0123456789ab';
    const answer = await call(sim, 'GET', '/v1/query/websites', { headers: sessionCookie(token) });
    expect(answer.status).toBe(401);
    expect(answer.json).toMatchObject({ success: false, code: 'AUTH_REQUIRED' });
    expect(answer.json.hint).toMatch(/session/i);
    expect(answer.headers['WWW-Authenticate']).toEqual(expect.any(String));
    expect(answer.text).not.toContain(token);
  });

  it('refuses an empty session cookie with 401', async () => {
    const answer = await call(sim, 'GET', '/v1/query/websites', { headers: { cookie: 'databuddy.session_token=' } });
    expect(answer.status).toBe(401);
  });

  it('does not accept the token under another cookie name', async () => {
    const answer = await call(sim, 'GET', '/v1/query/websites', { headers: { cookie: `session_token=${tokenOf('user_alice')}` } });
    expect(answer.status).toBe(401);
  });

  it('lets an API key on the same request win over the cookie', async () => {
    const answer = await call(sim, 'GET', '/v1/query/websites', {
      key: secretOf(sim, 'key_acme_read'),
      headers: sessionCookie(tokenOf('user_bob')),
    });
    expect(answer.status).toBe(200);
    expect(websiteIdsOf(answer)).toEqual(await keyList('key_acme_read'));
  });

  it('lets a refused API key win over a valid cookie: the request is unauthenticated', async () => {
    const answer = await call(sim, 'GET', '/v1/query/websites', {
      key: secretOf(sim, 'key_acme_revoked'),
      headers: sessionCookie(tokenOf('user_alice')),
    });
    expect(answer.status).toBe(401);
    expect(answer.json.hint).toMatch(/revoked/i);
  });
});
