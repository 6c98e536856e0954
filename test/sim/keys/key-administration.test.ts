import { describe, expect, it } from 'vitest';
import { apiKeyViewSchema, issuedKeySchema, keyListResponseSchema } from '../../../src/contract/keys.js';
import { SUMMARY_QUERY } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';
import { createdKey, createKey, READ_KEY, SECRET_FORMAT, websiteIds, websitesStatus } from './support.js';

const HOUR = 3_600_000;

describe('POST /__sim/keys', () => {
  it('creates a key whose secret works on the Query API at once', async () => {
    const sim = freshSimulator();
    const { secret, answer } = await createdKey(sim);
    expect(issuedKeySchema.parse(answer.json)).toBeTruthy();
    expect(secret).toMatch(SECRET_FORMAT);
    expect(answer.json.key).toMatchObject({
      name: 'CI reader',
      prefix: 'dbdy',
      start: secret.slice(0, 8),
      organizationId: 'org_acme',
      userId: 'user_alice',
      scopes: ['read:data'],
      access: 'global',
      websiteIds: null,
      enabled: true,
      status: 'active',
      expiresAt: null,
      revokedAt: null,
      quota: { enabled: false, limit: 300, windowSeconds: 60 },
      createdAt: new Date(sim.clock.now()).toISOString(),
      fixture: false,
    });
    expect(await websiteIds(sim, secret)).toEqual(await websiteIds(sim, secretOf(sim, 'key_acme_read')));
  });

  it('restricts a key with websiteIds to those websites', async () => {
    const sim = freshSimulator();
    const { secret, answer } = await createdKey(sim, { ...READ_KEY, websiteIds: ['web_acme_blog', 'web_acme_docs'] });
    expect(answer.json.key).toMatchObject({ access: 'websites', websiteIds: ['web_acme_blog', 'web_acme_docs'] });
    expect(await websiteIds(sim, secret)).toEqual(['web_acme_blog', 'web_acme_docs']);
    const other = await call(sim, 'POST', '/v1/query', { key: secret, query: { website_id: 'web_acme_store' }, body: SUMMARY_QUERY });
    expect(other.status).toBe(403);
    expect(other.json.code).toBe('ACCESS_DENIED');
  });

  it('gives global access when asked with global: true', async () => {
    const sim = freshSimulator();
    const { answer } = await createdKey(sim, { ...READ_KEY, global: true });
    expect(answer.json.key.access).toBe('global');
  });

  it('accepts a caller-chosen id, an owner, an expiry and a quota', async () => {
    const sim = freshSimulator();
    const expiresAt = new Date(sim.clock.now() + HOUR).toISOString();
    const { id, answer } = await createdKey(sim, {
      ...READ_KEY,
      id: 'key_ci_reader',
      userId: 'user_carol',
      expiresAt,
      quota: { enabled: true, limit: 5, windowSeconds: 10 },
    });
    expect(id).toBe('key_ci_reader');
    expect(answer.json.key).toMatchObject({ userId: 'user_carol', expiresAt, quota: { enabled: true, limit: 5, windowSeconds: 10 } });
  });

  it('applies the quota of a created key on its sixth request in the window', async () => {
    const sim = freshSimulator();
    const { secret } = await createdKey(sim, { ...READ_KEY, quota: { enabled: true, limit: 5, windowSeconds: 10 } });
    for (let i = 0; i < 5; i++) expect(await websitesStatus(sim, secret)).toBe(200);
    const refused = await call(sim, 'GET', '/v1/query/websites', { key: secret });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ error: 'API key rate limit exceeded', limit: 5, retryAfter: 10 });
    sim.clock.advance(10_000);
    expect(await websitesStatus(sim, secret)).toBe(200);
  });

  it('creates an expired key when the expiry is in the past, and a key that expires on the virtual clock', async () => {
    const sim = freshSimulator();
    const past = await createdKey(sim, { ...READ_KEY, expiresAt: sim.clock.now() - 1 });
    expect(past.answer.json.key.status).toBe('expired');
    expect(await websitesStatus(sim, past.secret)).toBe(401);

    const soon = await createdKey(sim, { ...READ_KEY, expiresAt: sim.clock.now() + HOUR });
    expect(await websitesStatus(sim, soon.secret)).toBe(200);
    sim.clock.advance(HOUR);
    const refused = await call(sim, 'GET', '/v1/query/websites', { key: soon.secret });
    expect(refused.status).toBe(401);
    expect(refused.json.hint).toMatch(/expired/);
    expect((await call(sim, 'GET', `/__sim/keys/${soon.id}`)).json.key.status).toBe('expired');
  });

  it('creates a disabled key that is refused until it is enabled', async () => {
    const sim = freshSimulator();
    const { id, secret } = await createdKey(sim, { ...READ_KEY, enabled: false });
    expect(await websitesStatus(sim, secret)).toBe(401);
    expect((await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { enabled: true } })).status).toBe(200);
    expect(await websitesStatus(sim, secret)).toBe(200);
  });

  it('draws the same ids and secrets from the same seed, and others from another seed', async () => {
    const run = async (seed: number) => {
      const sim = freshSimulator({ seed });
      const first = await createdKey(sim);
      const second = await createdKey(sim);
      const rotated = (await call(sim, 'POST', `/__sim/keys/${first.id}/rotate`)).json.secret as string;
      return [first.id, first.secret, second.id, second.secret, rotated];
    };
    const a = await run(42);
    expect(await run(42)).toEqual(a);
    expect(new Set(a).size).toBe(5);
    const other = await run(7);
    for (const value of other) expect(a).not.toContain(value);
  });

  it.each([
    [{ ...READ_KEY, name: undefined }, ['body.name']],
    [{ ...READ_KEY, name: '   ' }, ['body.name']],
    [{ ...READ_KEY, scopes: ['read:everything'] }, ['body.scopes[0]']],
    [{ ...READ_KEY, scopes: [] }, ['body.scopes']],
    [{ ...READ_KEY, organizationId: 'org_nope' }, ['body.organizationId']],
    [{ ...READ_KEY, websiteIds: ['web_globex_app', 'web_nope'] }, ['body.websiteIds[0]', 'body.websiteIds[1]']],
    [{ ...READ_KEY, websiteIds: ['web_acme_blog'], global: true }, ['body.global']],
    [{ ...READ_KEY, global: false }, ['body.websiteIds']],
    [{ ...READ_KEY, userId: 'user_bob' }, ['body.userId']],
    [{ ...READ_KEY, expiresAt: 'next week' }, ['body.expiresAt']],
    [{ ...READ_KEY, quota: { enabled: true, limit: 0 } }, ['body.quota.limit']],
    [{ ...READ_KEY, secret: 'dbdy_mine' }, ['body']],
    [{ ...READ_KEY, id: 'my key' }, ['body.id']],
  ])('refuses %j with 422 naming %j', async (body, fields) => {
    const sim = freshSimulator();
    const answer = await createKey(sim, body);
    expect(answer.status).toBe(422);
    expect(answer.json.code).toBe('VALIDATION');
    expect((answer.json.details as { field: string }[]).map((d) => d.field)).toEqual(fields);
    expect((await call(sim, 'GET', '/__sim/audit')).json.total).toBe(0);
  });

  it('answers 409 when the chosen id is taken', async () => {
    const sim = freshSimulator();
    const answer = await createKey(sim, { ...READ_KEY, id: 'key_acme_read' });
    expect(answer.status).toBe(409);
    expect(answer.json.code).toBe('CONFLICT');
  });
});

describe('where a secret appears', () => {
  it('shows the full secret only in the creation and rotation answers', async () => {
    const sim = freshSimulator();
    const { id, secret, answer: creation } = await createdKey(sim);
    expect(creation.text).toContain(secret);
    await call(sim, 'GET', '/v1/query/websites', { key: secret });
    const rotation = await call(sim, 'POST', `/__sim/keys/${id}/rotate`);
    const next = rotation.json.secret as string;
    expect(rotation.text).toContain(next);
    await call(sim, 'GET', '/v1/query/websites', { key: next });
    const others = [
      await call(sim, 'GET', '/__sim/keys'),
      await call(sim, 'GET', `/__sim/keys/${id}`),
      await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { name: 'Renamed' } }),
      await call(sim, 'GET', '/__sim/fixtures'),
      await call(sim, 'GET', '/__sim/journal'),
      await call(sim, 'GET', '/__sim/audit'),
      await call(sim, 'POST', `/__sim/keys/${id}/revoke`),
      await call(sim, 'GET', '/v1/query/websites', { key: secret }),
      await call(sim, 'GET', '/v1/query/websites', { key: next }),
      await call(sim, 'DELETE', `/__sim/keys/${id}`),
      await call(sim, 'GET', '/__sim/audit'),
    ];
    for (const answer of others) {
      expect(answer.text).not.toContain(secret);
      expect(answer.text).not.toContain(next);
    }
  });
});

describe('GET /__sim/keys', () => {
  it('lists the fixture keys, then created ones, with prefix and start but no secret', async () => {
    const sim = freshSimulator();
    const { id, secret } = await createdKey(sim);
    const answer = await call(sim, 'GET', '/__sim/keys');
    expect(answer.status).toBe(200);
    const list = keyListResponseSchema.parse(answer.json);
    expect(list.total).toBe(list.keys.length);
    expect(list.keys.at(-1)?.id).toBe(id);
    expect(list.keys[0]).toMatchObject({ id: 'key_acme_read', fixture: true, prefix: 'dbdy' });
    expect(list.keys.map((k) => k.status)).toEqual(expect.arrayContaining(['active', 'expired', 'revoked', 'disabled']));
    expect(answer.text).not.toContain(secret);
    expect(answer.text).not.toContain(secretOf(sim, 'key_acme_read'));
    expect(answer.text).not.toMatch(/dbdy_[A-Za-z0-9]{48}/);
  });

  it('filters by organizationId and by status', async () => {
    const sim = freshSimulator();
    const globex = await call(sim, 'GET', '/__sim/keys', { query: { organizationId: 'org_globex' } });
    expect(globex.json.keys.map((k: { id: string }) => k.id)).toEqual(['key_globex_read']);
    const revoked = await call(sim, 'GET', '/__sim/keys', { query: { status: 'revoked' } });
    expect(revoked.json.keys.map((k: { id: string }) => k.id)).toEqual(['key_acme_revoked']);
    const bad = await call(sim, 'GET', '/__sim/keys', { query: { status: 'zombie' } });
    expect(bad.status).toBe(400);
    expect(bad.json.details[0].field).toBe('status');
  });

  it('shows one key by id, and 404 for an unknown id', async () => {
    const sim = freshSimulator();
    const one = await call(sim, 'GET', '/__sim/keys/key_acme_store_only');
    expect(one.status).toBe(200);
    expect(apiKeyViewSchema.parse(one.json.key)).toMatchObject({ access: 'websites', websiteIds: ['web_acme_store'] });
    const missing = await call(sim, 'GET', '/__sim/keys/key_nope');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ code: 'NOT_FOUND', error: 'API key not found' });
  });
});

describe('PATCH /__sim/keys/:id', () => {
  it('renames a key', async () => {
    const sim = freshSimulator();
    const { id } = await createdKey(sim);
    sim.clock.advance(1000);
    const answer = await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { name: 'Renamed' } });
    expect(answer.status).toBe(200);
    expect(answer.json.key.name).toBe('Renamed');
    expect(answer.json.key.updatedAt).toBe(new Date(sim.clock.now()).toISOString());
  });

  it('changes scopes: without read:data the next query is refused with 403 FORBIDDEN', async () => {
    const sim = freshSimulator();
    const { id, secret } = await createdKey(sim);
    await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { scopes: ['track:events'] } });
    const answer = await call(sim, 'GET', '/v1/query/websites', { key: secret });
    expect(answer.status).toBe(403);
    expect(answer.json.code).toBe('FORBIDDEN');
  });

  it('restricts a global key to websites and opens it again', async () => {
    const sim = freshSimulator();
    const { id, secret } = await createdKey(sim);
    await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { websiteIds: ['web_acme_labs'] } });
    expect(await websiteIds(sim, secret)).toEqual(['web_acme_labs']);
    await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { global: true } });
    expect((await websiteIds(sim, secret)).length).toBeGreaterThan(1);
  });

  it('changes the expiry, the quota and the enabled flag on the next request', async () => {
    const sim = freshSimulator();
    const { id, secret } = await createdKey(sim);
    await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { quota: { enabled: true, limit: 1 } } });
    expect(await websitesStatus(sim, secret)).toBe(200);
    expect(await websitesStatus(sim, secret)).toBe(429);
    await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { quota: { enabled: false } } });
    expect(await websitesStatus(sim, secret)).toBe(200);
    await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { enabled: false } });
    expect(await websitesStatus(sim, secret)).toBe(401);
    await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { enabled: true, expiresAt: '2020-01-01T00:00:00Z' } });
    expect(await websitesStatus(sim, secret)).toBe(401);
    await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { expiresAt: null } });
    expect(await websitesStatus(sim, secret)).toBe(200);
  });

  it('changes fixture keys too', async () => {
    const sim = freshSimulator();
    const secret = secretOf(sim, 'key_acme_disabled');
    expect(await websitesStatus(sim, secret)).toBe(401);
    await call(sim, 'PATCH', '/__sim/keys/key_acme_disabled', { body: { enabled: true } });
    expect(await websitesStatus(sim, secret)).toBe(200);
  });

  it.each([
    [{}, 'body'],
    [{ organizationId: 'org_globex' }, 'body'],
    [{ websiteIds: ['web_globex_app'] }, 'body.websiteIds[0]'],
    [{ scopes: ['root'] }, 'body.scopes[0]'],
    [{ expiresAt: 12.5 }, 'body.expiresAt'],
  ])('refuses the patch %j with 422 naming %s', async (body, field) => {
    const sim = freshSimulator();
    const answer = await call(sim, 'PATCH', '/__sim/keys/key_acme_read', { body });
    expect(answer.status).toBe(422);
    expect(answer.json.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('answers 404 for an unknown id', async () => {
    const answer = await call(freshSimulator(), 'PATCH', '/__sim/keys/key_nope', { body: { name: 'x' } });
    expect(answer.status).toBe(404);
  });
});

describe('POST /__sim/keys/:id/rotate', () => {
  it('refuses the old secret at once and accepts the new one', async () => {
    const sim = freshSimulator();
    const { id, secret } = await createdKey(sim);
    const answer = await call(sim, 'POST', `/__sim/keys/${id}/rotate`);
    expect(answer.status).toBe(200);
    const rotated = issuedKeySchema.parse(answer.json);
    expect(rotated.secret).toMatch(SECRET_FORMAT);
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.key).toMatchObject({ id, start: rotated.secret.slice(0, 8), status: 'active' });
    const old = await call(sim, 'GET', '/v1/query/websites', { key: secret });
    expect(old.status).toBe(401);
    expect(old.json.hint).toMatch(/not recognised/);
    expect(await websitesStatus(sim, rotated.secret)).toBe(200);
  });

  it('rotates a fixture key: the fixture listing stops revealing the old secret', async () => {
    const sim = freshSimulator();
    const old = secretOf(sim, 'key_acme_read');
    const { secret } = (await call(sim, 'POST', '/__sim/keys/key_acme_read/rotate')).json;
    expect(await websitesStatus(sim, old)).toBe(401);
    expect(await websitesStatus(sim, secret)).toBe(200);
    const fixtures = (await call(sim, 'GET', '/__sim/fixtures')).json;
    expect(fixtures.apiKeys.find((k: { id: string }) => k.id === 'key_acme_read').secret).toBeNull();
    expect(JSON.stringify(fixtures)).not.toContain(old);
  });

  it('keeps the key’s quota window: rotation is not a way around the quota', async () => {
    const sim = freshSimulator();
    const { id, secret } = await createdKey(sim, { ...READ_KEY, quota: { enabled: true, limit: 2 } });
    expect(await websitesStatus(sim, secret)).toBe(200);
    expect(await websitesStatus(sim, secret)).toBe(200);
    const { secret: next } = (await call(sim, 'POST', `/__sim/keys/${id}/rotate`)).json;
    expect(await websitesStatus(sim, next)).toBe(429);
  });

  it('answers 409 for a revoked key and 404 for an unknown one', async () => {
    const sim = freshSimulator();
    const revoked = await call(sim, 'POST', '/__sim/keys/key_acme_revoked/rotate');
    expect(revoked.status).toBe(409);
    expect(revoked.json.code).toBe('CONFLICT');
    expect((await call(sim, 'POST', '/__sim/keys/key_nope/rotate')).status).toBe(404);
  });
});

describe('POST /__sim/keys/:id/revoke', () => {
  it('refuses the secret from the next request on', async () => {
    const sim = freshSimulator();
    const { id, secret } = await createdKey(sim);
    expect(await websitesStatus(sim, secret)).toBe(200);
    const answer = await call(sim, 'POST', `/__sim/keys/${id}/revoke`);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ alreadyRevoked: false, key: { status: 'revoked', revokedAt: new Date(sim.clock.now()).toISOString() } });
    const refused = await call(sim, 'GET', '/v1/query/websites', { key: secret });
    expect(refused.status).toBe(401);
    expect(refused.json.hint).toMatch(/revoked/);
  });

  it('is idempotent: a second revoke keeps the first instant and says alreadyRevoked', async () => {
    const sim = freshSimulator();
    const { id } = await createdKey(sim);
    const first = await call(sim, 'POST', `/__sim/keys/${id}/revoke`);
    sim.clock.advance(5000);
    const second = await call(sim, 'POST', `/__sim/keys/${id}/revoke`);
    expect(second.status).toBe(200);
    expect(second.json.alreadyRevoked).toBe(true);
    expect(second.json.key.revokedAt).toBe(first.json.key.revokedAt);
  });

  it('cannot be undone by enabling the key', async () => {
    const sim = freshSimulator();
    const { id, secret } = await createdKey(sim);
    await call(sim, 'POST', `/__sim/keys/${id}/revoke`);
    await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { enabled: true, name: 'still revoked' } });
    expect(await websitesStatus(sim, secret)).toBe(401);
  });

  it('answers 404 for an unknown id', async () => {
    expect((await call(freshSimulator(), 'POST', '/__sim/keys/key_nope/revoke')).status).toBe(404);
  });
});

describe('DELETE /__sim/keys/:id', () => {
  it('removes the key: its secret gets 401 and its id 404', async () => {
    const sim = freshSimulator();
    const { id, secret } = await createdKey(sim);
    const answer = await call(sim, 'DELETE', `/__sim/keys/${id}`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ ok: true, deleted: id });
    expect(await websitesStatus(sim, secret)).toBe(401);
    expect((await call(sim, 'GET', `/__sim/keys/${id}`)).status).toBe(404);
    expect((await call(sim, 'DELETE', `/__sim/keys/${id}`)).status).toBe(404);
    expect((await call(sim, 'GET', '/__sim/keys')).json.keys.map((k: { id: string }) => k.id)).not.toContain(id);
  });

  it('deletes a fixture key until the next reset', async () => {
    const sim = freshSimulator();
    const secret = secretOf(sim, 'key_globex_read');
    await call(sim, 'DELETE', '/__sim/keys/key_globex_read');
    expect(await websitesStatus(sim, secret)).toBe(401);
    await call(sim, 'POST', '/__sim/reset');
    expect(await websitesStatus(sim, secret)).toBe(200);
  });
});

describe('reset and key administration', () => {
  it('restores the fixture keys, forgets created keys and clears the audit', async () => {
    const sim = freshSimulator();
    const before = (await call(sim, 'GET', '/__sim/keys')).json;
    const fixtureSecret = secretOf(sim, 'key_acme_read');
    const created = await createdKey(sim);
    await call(sim, 'POST', '/__sim/keys/key_acme_read/rotate');
    await call(sim, 'POST', '/__sim/keys/key_acme_all/revoke');
    await call(sim, 'DELETE', '/__sim/keys/key_acme_track');
    await call(sim, 'PATCH', '/__sim/keys/key_acme_quota', { body: { quota: { enabled: false } } });

    await call(sim, 'POST', '/__sim/reset');
    expect((await call(sim, 'GET', '/__sim/keys')).json).toEqual(before);
    expect((await call(sim, 'GET', '/__sim/audit')).json).toEqual({ records: [], total: 0, dropped: 0 });
    expect(await websitesStatus(sim, created.secret)).toBe(401);
    expect(await websitesStatus(sim, fixtureSecret)).toBe(200);
    expect(secretOf(sim, 'key_acme_read')).toBe(fixtureSecret);
  });

  it('issues the same secrets again after a reset', async () => {
    const sim = freshSimulator();
    const first = await createdKey(sim);
    await call(sim, 'POST', '/__sim/reset');
    const again = await createdKey(sim);
    expect([again.id, again.secret]).toEqual([first.id, first.secret]);
  });

  it('lists created keys in GET /__sim/fixtures without a secret', async () => {
    const sim = freshSimulator();
    const { id, secret } = await createdKey(sim);
    const fixtures = await call(sim, 'GET', '/__sim/fixtures');
    expect(fixtures.json.apiKeys.find((k: { id: string }) => k.id === id)).toMatchObject({ secret: null, start: secret.slice(0, 8) });
    expect(fixtures.text).not.toContain(secret);
  });
});
