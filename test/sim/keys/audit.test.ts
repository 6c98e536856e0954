import { describe, expect, it } from 'vitest';
import { auditListResponseSchema } from '../../../src/contract/keys.js';
import { hashSecret } from '../../../src/sim/auth/key-hash.js';
import { allSecrets } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';
import { auditRecords, createdKey, READ_KEY } from './support.js';

const iso = (ms: number): string => new Date(ms).toISOString();

describe('the audit log of key mutations (SPEC 6.2)', () => {
  it('writes one record for each mutation, of its kind, in order, on the simulator clock', async () => {
    const sim = freshSimulator();
    const t0 = sim.clock.now();
    const { id } = await createdKey(sim);
    sim.clock.advance(1000);
    await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { name: 'Renamed', scopes: ['read:data', 'read:links'] } });
    sim.clock.advance(1000);
    await call(sim, 'POST', `/__sim/keys/${id}/rotate`);
    sim.clock.advance(1000);
    await call(sim, 'POST', `/__sim/keys/${id}/revoke`);
    sim.clock.advance(1000);
    await call(sim, 'DELETE', `/__sim/keys/${id}`);

    const answer = await call(sim, 'GET', '/__sim/audit');
    expect(answer.status).toBe(200);
    const { records, total, dropped } = auditListResponseSchema.parse(answer.json);
    expect(total).toBe(5);
    expect(dropped).toBe(0);
    expect(records.map((r) => [r.id, r.kind, r.keyId, r.at, r.actor])).toEqual([
      ['aud_000001', 'created', id, iso(t0), 'control-plane'],
      ['aud_000002', 'updated', id, iso(t0 + 1000), 'control-plane'],
      ['aud_000003', 'rotated', id, iso(t0 + 2000), 'control-plane'],
      ['aud_000004', 'revoked', id, iso(t0 + 3000), 'control-plane'],
      ['aud_000005', 'deleted', id, iso(t0 + 4000), 'control-plane'],
    ]);
  });

  it('says what changed, field by field', async () => {
    const sim = freshSimulator();
    const { id, secret } = await createdKey(sim, { ...READ_KEY, websiteIds: ['web_acme_blog'] });
    await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { name: 'Blog reader', quota: { enabled: true, limit: 9 } } });
    const { secret: rotated } = (await call(sim, 'POST', `/__sim/keys/${id}/rotate`)).json;
    await call(sim, 'POST', `/__sim/keys/${id}/revoke`);
    const [created, updated, rotation, revocation] = await auditRecords(sim);

    expect(created?.changes).toMatchObject({
      name: { from: null, to: 'CI reader' },
      organizationId: { from: null, to: 'org_acme' },
      scopes: { from: null, to: ['read:data'] },
      access: { from: null, to: 'websites' },
      websiteIds: { from: null, to: ['web_acme_blog'] },
      start: { from: null, to: secret.slice(0, 8) },
    });
    expect(updated?.changes).toEqual({
      name: { from: 'CI reader', to: 'Blog reader' },
      quota: { from: { enabled: false, limit: 300, windowSeconds: 60 }, to: { enabled: true, limit: 9, windowSeconds: 60 } },
    });
    expect(rotation?.changes).toEqual({ start: { from: secret.slice(0, 8), to: rotated.slice(0, 8) } });
    expect(revocation?.changes).toEqual({ revokedAt: { from: null, to: iso(sim.clock.now()) } });
  });

  it('contains no secret and no hash anywhere', async () => {
    const sim = freshSimulator();
    const issued: string[] = [];
    const { id, secret } = await createdKey(sim);
    issued.push(secret);
    issued.push((await call(sim, 'POST', `/__sim/keys/${id}/rotate`)).json.secret);
    issued.push((await call(sim, 'POST', '/__sim/keys/key_acme_read/rotate')).json.secret);
    const fixtureSecrets = allSecrets(freshSimulator());
    await call(sim, 'PATCH', '/__sim/keys/key_acme_all', { body: { enabled: false } });
    await call(sim, 'DELETE', '/__sim/keys/key_acme_track');
    await call(sim, 'POST', `/__sim/keys/${id}/revoke`);

    const text = (await call(sim, 'GET', '/__sim/audit')).text;
    expect(JSON.parse(text).total).toBe(6);
    for (const value of [...issued, ...fixtureSecrets]) {
      expect(text).not.toContain(value);
      expect(text).not.toContain(hashSecret(value));
    }
    expect(text).not.toMatch(/dbdy_[A-Za-z0-9]{48}/);
    expect(text).not.toMatch(/[0-9a-f]{64}/);
  });

  it('does not audit requests made with keys, reads, refusals or no-op changes', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_read');
    for (let i = 0; i < 3; i++) await call(sim, 'GET', '/v1/query/websites', { key });
    await call(sim, 'GET', '/__sim/keys');
    await call(sim, 'GET', '/__sim/keys/key_acme_read');
    await call(sim, 'PATCH', '/__sim/keys/key_acme_read', { body: { name: 'Analytics read' } });
    await call(sim, 'PATCH', '/__sim/keys/key_acme_read', { body: { scopes: ['nope'] } });
    await call(sim, 'POST', '/__sim/keys/key_acme_revoked/revoke');
    await call(sim, 'POST', '/__sim/keys/key_acme_revoked/rotate');
    await call(sim, 'DELETE', '/__sim/keys/key_nope');
    expect(await auditRecords(sim)).toEqual([]);
  });

  it('filters by keyId and kind, and refuses an unknown kind with 400', async () => {
    const sim = freshSimulator();
    const { id } = await createdKey(sim);
    await call(sim, 'POST', '/__sim/keys/key_acme_read/revoke');
    await call(sim, 'POST', `/__sim/keys/${id}/revoke`);
    expect((await auditRecords(sim, { keyId: id })).map((r) => r.kind)).toEqual(['created', 'revoked']);
    expect((await auditRecords(sim, { kind: 'revoked' })).map((r) => r.keyId)).toEqual(['key_acme_read', id]);
    expect(await auditRecords(sim, { keyId: id, kind: 'rotated' })).toEqual([]);
    const bad = await call(sim, 'GET', '/__sim/audit', { query: { kind: 'renamed' } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'kind' }] });
  });

  it('names the actor from the x-sim-actor header', async () => {
    const sim = freshSimulator();
    await call(sim, 'POST', '/__sim/keys/key_acme_read/revoke', { headers: { 'x-sim-actor': 'release-bot' } });
    await call(sim, 'POST', '/__sim/keys/key_acme_all/revoke', { headers: { 'x-sim-actor': 'x'.repeat(65) } });
    expect((await auditRecords(sim)).map((r) => r.actor)).toEqual(['release-bot', 'control-plane']);
  });
});
