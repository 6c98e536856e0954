import { describe, expect, it } from 'vitest';
import { organizationSettingsResponseSchema } from '../../../src/contract/manage/organization.js';
import { as, manageSimulator, onlyScope, refusal } from './support.js';

describe('organization settings', () => {
  it('reads the seeded settings of the caller’s organization', async () => {
    const answer = await as(manageSimulator(), { key: onlyScope('manage:config') }).get('/v1/organization/settings');
    expect(organizationSettingsResponseSchema.parse(answer.json).data).toEqual({
      organizationId: 'org_acme',
      name: 'Acme Inc',
      slug: 'acme',
      timezone: 'America/New_York',
      defaultWebsiteId: 'web_acme_www',
      dataRetentionDays: 395,
      allowedOrigins: ['https://acme.io', 'https://store.acme.io'],
      createdAt: '2024-01-08T09:30:00.000Z',
      updatedAt: '2024-03-01T10:00:00.000Z',
    });
  });

  it('changes the settings, and a new name shows in the website list', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    const change = { name: 'Acme Corporation', timezone: 'europe/berlin', defaultWebsiteId: 'web_acme_blog', dataRetentionDays: 90, allowedOrigins: ['https://acme.io', 'http://localhost:3000'] };
    const answer = await admin.patch('/v1/organization/settings', change);
    expect(answer.status).toBe(200);
    expect(answer.json.data).toMatchObject({ ...change, timezone: 'Europe/Berlin', updatedAt: new Date(sim.clock.now()).toISOString() });
    expect((await admin.get('/v1/organization/settings')).json.data).toEqual(answer.json.data);
    const websites = await as(sim, { key: 'key_acme_read' }).get('/v1/query/websites');
    expect(websites.json.websites[0].organizationName).toBe('Acme Corporation');
  });

  it('answers 422 naming wrong fields, and 400 for a default website of another organization', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    const bad = await admin.patch('/v1/organization/settings', { timezone: 'Mars/Olympus', dataRetentionDays: 7, allowedOrigins: ['https://acme.io/app'] });
    expect(refusal(bad)).toEqual({ status: 422, code: 'VALIDATION' });
    expect(bad.json.details.map((d: { field: string }) => d.field)).toEqual(['body.timezone', 'body.dataRetentionDays', 'body.allowedOrigins[0]']);
    const foreign = await admin.patch('/v1/organization/settings', { defaultWebsiteId: 'web_globex_app' });
    expect(refusal(foreign)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    expect(foreign.json.details[0].field).toBe('body.defaultWebsiteId');
    expect((await admin.patch('/v1/organization/settings', { defaultWebsiteId: null })).json.data.defaultWebsiteId).toBeNull();
  });

  it('is out of reach for a website-restricted key', async () => {
    const answer = await as(manageSimulator(), { key: 'key_acme_store_manage' }).get('/v1/organization/settings');
    expect(refusal(answer)).toEqual({ status: 403, code: 'ACCESS_DENIED' });
    expect(answer.json.error).toBe('Access denied to this organization');
  });
});

describe('the organization a request acts for', () => {
  it('is the session’s active organization, or one of its user’s organizations named by organization_id', async () => {
    const sim = manageSimulator();
    const carol = as(sim, { user: 'user_carol' });
    expect((await carol.get('/v1/organization/settings')).json.data.organizationId).toBe('org_acme');
    const globex = await carol.get('/v1/organization/settings', { organization_id: 'org_globex' });
    expect(globex.json.data).toMatchObject({ organizationId: 'org_globex', timezone: 'Europe/Berlin' });
    expect((await carol.get('/v1/flags', { organization_id: 'org_globex' })).json.data.map((f: { key: string }) => f.key)).toEqual(['news-paywall']);
    expect(refusal(await carol.get('/v1/flags/flag_globex_paywall'))).toEqual({ status: 403, code: 'ACCESS_DENIED' });
    expect((await carol.get('/v1/flags/flag_globex_paywall', { organization_id: 'org_globex' })).status).toBe(200);
    const created = await carol.post('/v1/flags', { key: 'from-carol' }, { organization_id: 'org_globex' });
    expect(created.json.data.organizationId).toBe('org_globex');
  });

  it('refuses an organization the caller does not belong to, or that does not exist (403 ACCESS_DENIED)', async () => {
    const sim = manageSimulator();
    for (const [who, org] of [
      [{ user: 'user_bob' }, 'org_acme'],
      [{ key: 'key_acme_all' }, 'org_globex'],
      [{ key: 'key_acme_all' }, 'org_nope'],
    ] as const) {
      const answer = await as(sim, who).get('/v1/organization/settings', { organization_id: org });
      expect(refusal(answer)).toEqual({ status: 403, code: 'ACCESS_DENIED' });
      expect(answer.json.error).toBe('Access denied to this organization');
    }
  });
});
