import { describe, expect, it } from 'vitest';
import { call, freshSimulator } from '../../helpers/sim.js';
import { auditRecords, createdKey, READ_KEY } from './support.js';

describe('duplicate scopes at key creation', () => {
  it('folds a scope named twice into one, in the order first named, on POST /__sim/keys', async () => {
    const sim = freshSimulator();
    const { id, answer } = await createdKey(sim, { ...READ_KEY, scopes: ['read:data', 'track:events', 'read:data', 'track:events', 'read:data'] });
    expect(answer.status).toBe(201);
    expect(answer.json.key.scopes).toEqual(['read:data', 'track:events']);
    expect((await call(sim, 'GET', `/__sim/keys/${id}`)).json.key.scopes).toEqual(['read:data', 'track:events']);
    const [created] = await auditRecords(sim, { keyId: id, kind: 'created' });
    expect(created?.changes.scopes.to).toEqual(['read:data', 'track:events']);
  });

  it('folds repeated website ids the same way', async () => {
    const sim = freshSimulator();
    const { answer } = await createdKey(sim, { ...READ_KEY, websiteIds: ['web_acme_store', 'web_acme_store'] });
    expect(answer.json.key).toMatchObject({ access: 'websites', websiteIds: ['web_acme_store'] });
  });

  it('folds repeated scopes on PATCH, and a patch that only repeats the current scopes changes nothing', async () => {
    const sim = freshSimulator();
    const { id } = await createdKey(sim);
    const patched = await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { scopes: ['manage:websites', 'manage:websites'] } });
    expect(patched.status).toBe(200);
    expect(patched.json.key.scopes).toEqual(['manage:websites']);
    const again = await call(sim, 'PATCH', `/__sim/keys/${id}`, { body: { scopes: ['manage:websites', 'manage:websites', 'manage:websites'] } });
    expect(again.status).toBe(200);
    expect(await auditRecords(sim, { keyId: id, kind: 'updated' })).toHaveLength(1);
  });

  it('folds duplicates through the library API too', () => {
    const sim = freshSimulator();
    const issued = sim.keys.create({ ...READ_KEY, scopes: ['read:links', 'read:links'] });
    expect(issued.key.scopes).toEqual(['read:links']);
  });
});
