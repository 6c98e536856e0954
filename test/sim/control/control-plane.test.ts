import { describe, expect, it } from 'vitest';
import { DEFAULT_VIRTUAL_START } from '../../../src/index.js';
import { COMPILE_BODY, SUMMARY_QUERY } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf, type Answer, type CallOptions } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/sim/simulator.js';

const START = Date.UTC(2025, 5, 2, 12, 0, 0);

interface Fixtures {
  seed: string;
  organizations: { id: string; name: string }[];
  websites: { id: string; organizationId: string; isPublic: boolean; createdAt: string }[];
  users: { id: string; organizationIds: string[]; activeOrganizationId: string; sessionToken: string }[];
  apiKeys: { id: string; secret: string; purpose: string; organizationId: string; scopes: string[]; websiteIds: string[] | null }[];
  links: { id: string; organizationId: string }[];
  monitors: { id: string; organizationId: string; websiteId: string | null }[];
}

async function fixturesOf(sim: Simulator): Promise<Fixtures> {
  const answer = await call(sim, 'GET', '/__sim/fixtures');
  expect(answer.status).toBe(200);
  return answer.json as Fixtures;
}

describe('GET /__sim/health', () => {
  it('answers { ok: true, seed, clock } with the default virtual clock', async () => {
    const answer = await call(freshSimulator(), 'GET', '/__sim/health');
    expect(answer.status).toBe(200);
    expect(answer.headers['Content-Type']).toMatch(/^application\/json/);
    expect(answer.json).toMatchObject({ ok: true, seed: '42' });
    expect(answer.json.clock).toEqual({ mode: 'virtual', now: START, iso: '2025-06-02T12:00:00.000Z' });
    expect(DEFAULT_VIRTUAL_START).toBe(START);
  });

  it('reports the seed the simulator was created with', async () => {
    const answer = await call(freshSimulator({ seed: 'ci-run-7' }), 'GET', '/__sim/health');
    expect(answer.json.seed).toBe('ci-run-7');
  });

  it('needs no credential and ignores a refused one', async () => {
    const sim = freshSimulator();
    const answer = await call(sim, 'GET', '/__sim/health', { key: secretOf(sim, 'key_acme_revoked') });
    expect(answer.status).toBe(200);
    expect(answer.json.ok).toBe(true);
  });
});

describe('GET /__sim/fixtures', () => {
  const sim = freshSimulator();

  it('lists at least two organizations', async () => {
    const { organizations } = await fixturesOf(sim);
    expect(organizations.length).toBeGreaterThanOrEqual(2);
    expect(organizations.map((o) => o.id)).toEqual(expect.arrayContaining(['org_acme', 'org_globex']));
  });

  it('lists at least eight websites, at least one public, each in a listed organization', async () => {
    const { websites, organizations } = await fixturesOf(sim);
    const orgIds = new Set(organizations.map((o) => o.id));
    expect(websites.length).toBeGreaterThanOrEqual(8);
    expect(websites.some((w) => w.isPublic)).toBe(true);
    expect(websites.some((w) => !w.isPublic)).toBe(true);
    for (const website of websites) expect(orgIds.has(website.organizationId), website.id).toBe(true);
    expect(new Set(websites.map((w) => w.id)).size).toBe(websites.length);
  });

  it('lists users with their organizations and session tokens', async () => {
    const { users, organizations } = await fixturesOf(sim);
    const orgIds = new Set(organizations.map((o) => o.id));
    expect(users.length).toBeGreaterThanOrEqual(2);
    for (const user of users) {
      expect(user.sessionToken).toEqual(expect.any(String));
      for (const org of user.organizationIds) expect(orgIds.has(org)).toBe(true);
    }
  });

  it('lists every API key with a dbdy_ secret of 48 letters and digits and a purpose', async () => {
    const { apiKeys, organizations, websites } = await fixturesOf(sim);
    const orgIds = new Set(organizations.map((o) => o.id));
    const websiteIds = new Set(websites.map((w) => w.id));
    expect(apiKeys.length).toBeGreaterThanOrEqual(7);
    for (const key of apiKeys) {
      expect(key.secret, key.id).toMatch(/^dbdy_[A-Za-z0-9]{48}$/);
      expect(key.purpose, key.id).toEqual(expect.any(String));
      expect(key.purpose.length, key.id).toBeGreaterThan(0);
      expect(orgIds.has(key.organizationId), key.id).toBe(true);
      for (const id of key.websiteIds ?? []) expect(websiteIds.has(id), key.id).toBe(true);
    }
    expect(new Set(apiKeys.map((k) => k.secret)).size).toBe(apiKeys.length);
    expect(apiKeys.map((k) => k.id)).toEqual(
      expect.arrayContaining(['key_acme_read', 'key_acme_store_only', 'key_acme_expired', 'key_acme_revoked', 'key_globex_read']),
    );
  });

  it('lists links and monitors of listed organizations', async () => {
    const { links, monitors, organizations, websites } = await fixturesOf(sim);
    const orgIds = new Set(organizations.map((o) => o.id));
    expect(links.length).toBeGreaterThan(0);
    expect(monitors.length).toBeGreaterThan(0);
    for (const link of links) expect(orgIds.has(link.organizationId)).toBe(true);
    for (const monitor of monitors) {
      expect(orgIds.has(monitor.organizationId)).toBe(true);
      if (monitor.websiteId !== null) expect(websites.map((w) => w.id)).toContain(monitor.websiteId);
    }
    expect(links.map((l) => l.id)).toContain('link_acme_launch');
    expect(monitors.map((m) => m.id)).toContain('mon_acme_store');
  });

  it('lists the same secrets as the in-process fixtures() of the simulator', async () => {
    const { apiKeys } = await fixturesOf(sim);
    for (const key of apiKeys) expect(key.secret).toBe(secretOf(sim, key.id));
  });

  it('lists secrets that authenticate', async () => {
    const { apiKeys } = await fixturesOf(sim);
    const read = apiKeys.find((k) => k.id === 'key_acme_read');
    const answer = await call(sim, 'GET', '/v1/query/websites', { key: read?.secret as string });
    expect(answer.status).toBe(200);
  });
});

/** A varied sequence of requests: queries, refusals, errors and control-plane reads. */
function script(sim: Simulator): [string, string, CallOptions][] {
  const read = secretOf(sim, 'key_acme_read');
  return [
    ['GET', '/v1/query/types', {}],
    ['GET', '/v1/query/websites', { key: read }],
    ['POST', '/v1/query', { key: read, query: { website_id: 'web_acme_store' }, body: SUMMARY_QUERY }],
    ['POST', '/v1/query', { key: read, query: { website_id: 'web_acme_store' }, body: { parameters: ['summary_metrics'], preset: 'today' } }],
    ['POST', '/v1/query/compile', { key: read, body: COMPILE_BODY }],
    ['GET', '/v1/query/websites', {}],
    ['GET', '/nowhere', {}],
    ['GET', '/__sim/health', {}],
    ['GET', '/__sim/clock', {}],
  ];
}

async function runScript(sim: Simulator): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const [method, path, options] of script(sim)) answers.push(await call(sim, method, path, options));
  return answers;
}

describe('POST /__sim/reset', () => {
  it('restores the initial state, clock and request-id sequence: answers equal a fresh simulator', async () => {
    const used = freshSimulator();
    await runScript(used);
    await call(used, 'POST', '/__sim/clock', { body: { advanceMs: 3 * 86_400_000 + 12_345 } });
    await runScript(used);
    const reset = await call(used, 'POST', '/__sim/reset', { body: {} });
    expect(reset.status).toBe(200);
    expect(reset.json).toMatchObject({ ok: true, seed: '42', clock: { mode: 'virtual', now: START } });

    const afterReset = await runScript(used);
    const fresh = await runScript(freshSimulator());
    expect(afterReset).toEqual(fresh);
  });

  it('accepts a reset without a body', async () => {
    const sim = freshSimulator();
    await call(sim, 'POST', '/__sim/clock', { body: { advanceMs: 60_000 } });
    const answer = await call(sim, 'POST', '/__sim/reset');
    expect(answer.status).toBe(200);
    expect((await call(sim, 'GET', '/__sim/clock')).json.now).toBe(START);
  });

  it('changes every secret with { seed } and answers like a fresh simulator of that seed', async () => {
    const sim = freshSimulator();
    const before = await fixturesOf(sim);
    const oldSecret = secretOf(sim, 'key_acme_read');

    const answer = await call(sim, 'POST', '/__sim/reset', { body: { seed: 'other-seed' } });
    expect(answer.status).toBe(200);
    expect(answer.json.seed).toBe('other-seed');
    expect((await call(sim, 'GET', '/__sim/health')).json.seed).toBe('other-seed');

    const after = await fixturesOf(sim);
    const beforeSecrets = new Map(before.apiKeys.map((k) => [k.id, k.secret]));
    for (const key of after.apiKeys) {
      expect(key.secret).toMatch(/^dbdy_[A-Za-z0-9]{48}$/);
      expect(key.secret, key.id).not.toBe(beforeSecrets.get(key.id));
    }
    expect(after.apiKeys.map((k) => k.id)).toEqual(before.apiKeys.map((k) => k.id));

    const refused = await call(sim, 'GET', '/v1/query/websites', { key: oldSecret });
    expect(refused.status).toBe(401);
    const accepted = await call(sim, 'GET', '/v1/query/websites', { key: secretOf(sim, 'key_acme_read') });
    expect(accepted.status).toBe(200);

    const replay = freshSimulator({ seed: 'other-seed' });
    await call(replay, 'GET', '/__sim/health');
    await call(replay, 'GET', '/__sim/fixtures');
    await call(replay, 'GET', '/v1/query/websites', { key: oldSecret });
    expect(accepted).toEqual(await call(replay, 'GET', '/v1/query/websites', { key: secretOf(replay, 'key_acme_read') }));
  });

  it('accepts a numeric seed', async () => {
    const sim = freshSimulator();
    const answer = await call(sim, 'POST', '/__sim/reset', { body: { seed: 7 } });
    expect(answer.status).toBe(200);
    expect(String(answer.json.seed)).toBe('7');
    expect(secretOf(sim, 'key_acme_read')).toBe(secretOf(freshSimulator({ seed: 7 }), 'key_acme_read'));
  });

  it.each([
    ['an unknown field', { seed: 'x', wipe: true }],
    ['an empty seed', { seed: '' }],
    ['a seed of the wrong type', { seed: { nested: 1 } }],
  ])('refuses %s with 422 VALIDATION and keeps the state', async (_label, body) => {
    const sim = freshSimulator();
    const secret = secretOf(sim, 'key_acme_read');
    const answer = await call(sim, 'POST', '/__sim/reset', { body });
    expect(answer.status).toBe(422);
    expect(answer.json).toMatchObject({ success: false, code: 'VALIDATION' });
    expect(answer.json.details.length).toBeGreaterThan(0);
    expect(secretOf(sim, 'key_acme_read')).toBe(secret);
  });

  it('refuses malformed JSON with 400 PARSE', async () => {
    const answer = await call(freshSimulator(), 'POST', '/__sim/reset', { body: '{"seed":' });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('PARSE');
  });
});

describe('control-plane routing', () => {
  it('answers a wrong method on a control route with 405 and an Allow header', async () => {
    const answer = await call(freshSimulator(), 'DELETE', '/__sim/health');
    expect(answer.status).toBe(405);
    expect(answer.headers.Allow).toContain('GET');
  });

  it('answers an unknown control route with a JSON 404', async () => {
    const answer = await call(freshSimulator(), 'GET', '/__sim/nothing-here');
    expect(answer.status).toBe(404);
    expect(answer.json.code).toBe('NOT_FOUND');
  });
});
