import { describe, expect, it } from 'vitest';
import { SimulatorAdminError } from '../../../src/index.js';
import { call, freshSimulator } from '../../helpers/sim.js';
import { READ_KEY, SECRET_FORMAT, websitesStatus } from './support.js';

describe('sim.keys, the in-process key administration', () => {
  it('creates, changes, rotates, revokes and deletes keys like the control plane', async () => {
    const sim = freshSimulator();
    const created = sim.keys.create({ ...READ_KEY, scopes: ['read:data'] });
    expect(created.secret).toMatch(SECRET_FORMAT);
    expect(await websitesStatus(sim, created.secret)).toBe(200);

    expect(sim.keys.update(created.key.id, { name: 'Renamed' }).name).toBe('Renamed');
    expect(sim.keys.get(created.key.id)?.name).toBe('Renamed');
    expect(sim.keys.list({ organizationId: 'org_acme' }).map((k) => k.id)).toContain(created.key.id);

    const rotated = sim.keys.rotate(created.key.id);
    expect(await websitesStatus(sim, created.secret)).toBe(401);
    expect(await websitesStatus(sim, rotated.secret)).toBe(200);

    expect(sim.keys.revoke(created.key.id).status).toBe('revoked');
    expect(await websitesStatus(sim, rotated.secret)).toBe(401);
    sim.keys.delete(created.key.id);
    expect(sim.keys.get(created.key.id)).toBeUndefined();

    expect(sim.keys.audit().map((r) => [r.kind, r.actor])).toEqual([
      ['created', 'library'],
      ['updated', 'library'],
      ['rotated', 'library'],
      ['revoked', 'library'],
      ['deleted', 'library'],
    ]);
    expect((await call(sim, 'GET', '/__sim/audit')).json.records).toEqual(sim.keys.audit());
  });

  it('records the actor a caller names', () => {
    const sim = freshSimulator();
    sim.keys.revoke('key_acme_read', { actor: 'test-suite' });
    expect(sim.keys.audit({ kind: 'revoked' })[0]?.actor).toBe('test-suite');
  });

  it('throws a SimulatorAdminError with the HTTP status, code and the fields at fault', () => {
    const sim = freshSimulator();
    const attempt = (run: () => unknown): SimulatorAdminError => {
      try {
        run();
      } catch (error) {
        if (error instanceof SimulatorAdminError) return error;
        throw error;
      }
      throw new Error('expected a SimulatorAdminError');
    };
    const invalid = attempt(() => sim.keys.create({ name: '', organizationId: 'org_nope', scopes: [] }));
    expect(invalid).toMatchObject({ status: 422, code: 'VALIDATION' });
    expect(invalid.details.map((d) => d.field)).toEqual(['body.name', 'body.scopes']);
    expect(invalid.message).toContain('name');

    const unknownOrg = attempt(() => sim.keys.create({ ...READ_KEY, scopes: ['read:data'], organizationId: 'org_nope' }));
    expect(unknownOrg.details.map((d) => d.field)).toEqual(['body.organizationId']);
    expect(attempt(() => sim.keys.rotate('key_nope'))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(attempt(() => sim.keys.rotate('key_acme_revoked'))).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect(sim.keys.audit()).toEqual([]);
  });
});
