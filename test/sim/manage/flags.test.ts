import { describe, expect, it } from 'vitest';
import { flagSchemas } from '../../../src/contract/manage/flags.js';
import { as, manageSimulator, refusal } from './support.js';

const FLAG = {
  key: 'pricing-v2',
  description: 'New pricing table',
  enabled: true,
  rolloutPercentage: 10,
  rules: [
    { attribute: 'country', operator: 'in', values: ['DE', 'AT'], value: true },
    { attribute: 'plan', operator: 'equals', values: ['pro'], value: 'variant-b' },
    { attribute: 'seats', operator: 'greater_than', values: ['50'], value: 3 },
  ],
};

describe('feature flags: create, read, update, delete', () => {
  it('round-trips a flag with its targeting rules', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    const created = await admin.post('/v1/flags', FLAG);
    expect(created.status).toBe(201);
    const flag = flagSchemas.item.parse(created.json).data;
    expect(flag).toMatchObject({ ...FLAG, organizationId: 'org_acme', websiteId: null });
    expect(flag.id).toMatch(/^flag_[a-z0-9]{12}$/);
    expect((await admin.get(`/v1/flags/${flag.id}`)).json.data).toEqual(flag);
    const rules = [{ attribute: 'email', operator: 'ends_with', values: ['@acme.io'], value: true }];
    const changed = await admin.patch(`/v1/flags/${flag.id}`, { enabled: false, rolloutPercentage: 0, rules, description: null });
    expect(changed.json.data).toMatchObject({ key: FLAG.key, enabled: false, rolloutPercentage: 0, rules, description: null });
    expect((await admin.delete(`/v1/flags/${flag.id}`)).json.data).toEqual({ id: flag.id, deleted: true });
    expect(refusal(await admin.get(`/v1/flags/${flag.id}`))).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('creates a flag disabled, at 0%, with no rules by default', async () => {
    const flag = (await as(manageSimulator(), { key: 'key_acme_all' }).post('/v1/flags', { key: 'bare' })).json.data;
    expect(flag).toMatchObject({ key: 'bare', description: null, enabled: false, rolloutPercentage: 0, rules: [] });
  });

  it('lists the seeded flags of the organization by creation', async () => {
    const answer = await as(manageSimulator(), { key: 'key_acme_all' }).get('/v1/flags');
    const list = flagSchemas.list.parse(answer.json);
    expect(list.data.map((f) => f.key)).toEqual(['dark-mode', 'new-checkout', 'docs-search-v2']);
    expect(list.data[1]?.rules[0]).toEqual({ attribute: 'country', operator: 'in', values: ['US', 'CA'], value: true });
  });

  it('keeps keys unique in an organization (409), not across organizations', async () => {
    const sim = manageSimulator();
    expect(refusal(await as(sim, { key: 'key_acme_all' }).post('/v1/flags', { key: 'Dark-Mode' }))).toEqual({ status: 409, code: 'CONFLICT' });
    expect(refusal(await as(sim, { key: 'key_acme_all' }).patch('/v1/flags/flag_acme_docs_search', { key: 'new-checkout' }))).toEqual({ status: 409, code: 'CONFLICT' });
    expect((await as(sim, { key: 'key_globex_all' }).post('/v1/flags', { key: 'dark-mode' })).status).toBe(201);
  });

  it('names the missing flag in a 404', async () => {
    const answer = await as(manageSimulator(), { key: 'key_acme_all' }).patch('/v1/flags/flag_nope', { enabled: true });
    expect(answer.status).toBe(404);
    expect(answer.json.error).toBe('Feature flag not found');
  });
});

describe('feature flags: validation', () => {
  it('answers 422 naming the key, the rollout and each wrong rule field', async () => {
    const answer = await as(manageSimulator(), { key: 'key_acme_all' }).post('/v1/flags', {
      key: '-bad key',
      rolloutPercentage: 101,
      rules: [
        { attribute: 'country', operator: 'matches', values: ['x'], value: true },
        { attribute: 'plan', operator: 'equals', values: ['pro', 'team'], value: true },
        { attribute: 'seats', operator: 'less_than', values: ['many'], value: true },
        { attribute: '1st', operator: 'in', values: [], value: { nested: true } },
      ],
    });
    expect(refusal(answer)).toEqual({ status: 422, code: 'VALIDATION' });
    expect(answer.json.details.map((d: { field: string }) => d.field)).toEqual([
      'body.key',
      'body.rolloutPercentage',
      'body.rules[0].operator',
      'body.rules[1].values',
      'body.rules[2].values',
      'body.rules[3].attribute',
      'body.rules[3].values',
      'body.rules[3].value',
    ]);
    expect(answer.json.details.find((d: { field: string }) => d.field === 'body.rules[1].values').message).toBe('The equals operator takes exactly one value');
  });
});

describe('feature flags: reach', () => {
  it('shows a website-restricted key only the flags of its websites', async () => {
    const store = as(manageSimulator(), { key: 'key_acme_store_manage' });
    expect((await store.get('/v1/flags')).json.data.map((f: { key: string }) => f.key)).toEqual(['new-checkout']);
    expect(refusal(await store.get('/v1/flags/flag_acme_dark_mode'))).toEqual({ status: 403, code: 'ACCESS_DENIED' });
    expect((await store.post('/v1/flags', { key: 'store-only', websiteId: 'web_acme_store' })).status).toBe(201);
  });

  it('denies another organization’s flags, and names the scope a key lacks', async () => {
    const sim = manageSimulator();
    const globex = await as(sim, { key: 'key_globex_all' }).get('/v1/flags/flag_acme_dark_mode');
    expect(refusal(globex)).toEqual({ status: 403, code: 'ACCESS_DENIED' });
    expect(globex.json.error).toBe('Access denied to this feature flag');
    const reader = await as(sim, { key: 'key_acme_read' }).get('/v1/flags');
    expect(refusal(reader)).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect(reader.json.hint).toBe('This operation needs the manage:flags scope.');
  });
});
