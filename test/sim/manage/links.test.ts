import { describe, expect, it } from 'vitest';
import { linkSchemas } from '../../../src/contract/manage/links.js';
import { as, manageSimulator, onlyScope, refusal } from './support.js';

const LINK = { targetUrl: 'https://acme.io/pricing?utm_source=newsletter', slug: 'pricing', title: 'Pricing' };

describe('short links: create, read, update, delete', () => {
  it('round-trips a link through every route', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    const created = await admin.post('/v1/links', { ...LINK, websiteId: 'web_acme_www' });
    expect(created.status).toBe(201);
    const link = linkSchemas.item.parse(created.json).data;
    expect(link).toMatchObject({ ...LINK, organizationId: 'org_acme', websiteId: 'web_acme_www' });
    expect(link.id).toMatch(/^link_[a-z0-9]{12}$/);
    expect((await admin.get(`/v1/links/${link.id}`)).json.data).toEqual(link);

    sim.clock.advance(1_000);
    const changed = await admin.patch(`/v1/links/${link.id}`, { targetUrl: 'https://acme.io/plans', title: null, websiteId: null });
    expect(changed.json.data).toMatchObject({ id: link.id, slug: 'pricing', targetUrl: 'https://acme.io/plans', title: null, websiteId: null });
    expect(changed.json.data.updatedAt).not.toBe(link.updatedAt);

    expect((await admin.delete(`/v1/links/${link.id}`)).json.data).toEqual({ id: link.id, deleted: true });
    expect(refusal(await admin.get(`/v1/links/${link.id}`))).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('lists the seeded Acme links by creation, each attached to the website it points at', async () => {
    const answer = await as(manageSimulator(), { key: 'key_acme_all' }).get('/v1/links');
    const list = linkSchemas.list.parse(answer.json);
    expect(list.data.map((l) => [l.id, l.websiteId])).toEqual([
      ['link_acme_docs', 'web_acme_docs'],
      ['link_acme_launch', 'web_acme_www'],
      ['link_acme_sale', 'web_acme_store'],
      ['link_acme_podcast', 'web_acme_www'],
    ]);
    expect(list.pagination.total).toBe(4);
  });

  it('generates a slug when none is given', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    const link = (await admin.post('/v1/links', { targetUrl: 'https://acme.io/' })).json.data;
    expect(link.slug).toMatch(/^[a-z0-9]{7}$/);
    expect(link.title).toBeNull();
    expect(link.websiteId).toBeNull();
  });

  it('keeps slugs unique across the service, ignoring case (409)', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    const taken = await admin.post('/v1/links', { targetUrl: 'https://acme.io/', slug: 'Launch-Week' });
    expect(refusal(taken)).toEqual({ status: 409, code: 'CONFLICT' });
    expect(taken.json.hint).toContain('Launch-Week');
    expect(refusal(await admin.patch('/v1/links/link_acme_sale', { slug: 'careers' }))).toEqual({ status: 409, code: 'CONFLICT' });
    expect((await admin.patch('/v1/links/link_acme_sale', { slug: 'spring-sale' })).status).toBe(200);
  });

  it('gives created links click analytics through POST /v1/query with link_id', async () => {
    const sim = manageSimulator();
    const id = (await as(sim, { key: 'key_acme_all' }).post('/v1/links', LINK)).json.data.id;
    const answer = await as(sim, { key: 'key_acme_read' }).post('/v1/query', { parameters: ['link_total_clicks'], preset: 'last_7d' }, { link_id: id });
    expect(answer.status).toBe(200);
    expect(answer.json.data[0].data[0].total).toBeGreaterThan(0);
  });
});

describe('short links: validation and missing ids', () => {
  it('answers 422 naming the target URL, the slug and the title', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    const answer = await admin.post('/v1/links', { targetUrl: 'ftp://acme.io/file', slug: 'has space', title: 7 });
    expect(refusal(answer)).toEqual({ status: 422, code: 'VALIDATION' });
    expect(answer.json.details.map((d: { field: string }) => d.field)).toEqual(['body.targetUrl', 'body.slug', 'body.title']);
    expect(answer.json.details[0].message).toBe('Must be an http or https URL');
  });

  it('answers 400 naming websiteId when it is not a website of the organization', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    for (const websiteId of ['web_globex_app', 'web_nope']) {
      const answer = await admin.post('/v1/links', { ...LINK, websiteId });
      expect(refusal(answer)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(answer.json.details).toEqual([{ field: 'body.websiteId', message: `No website ${websiteId} in organization org_acme` }]);
    }
  });

  it('names the missing link in a 404', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    for (const answer of [await admin.get('/v1/links/link_nope'), await admin.patch('/v1/links/link_nope', { title: 'x' }), await admin.delete('/v1/links/link_nope')]) {
      expect(answer.status).toBe(404);
      expect(answer.json).toMatchObject({ code: 'NOT_FOUND', error: 'Link not found' });
    }
  });
});

describe('short links: read:links reads, write:links writes', () => {
  it('lets read:links list and get, but not create, change or delete', async () => {
    const reader = as(manageSimulator(), { key: onlyScope('read:links') });
    expect((await reader.get('/v1/links')).status).toBe(200);
    expect((await reader.get('/v1/links/link_acme_sale')).status).toBe(200);
    for (const answer of [await reader.post('/v1/links', LINK), await reader.patch('/v1/links/link_acme_sale', { title: 'x' }), await reader.delete('/v1/links/link_acme_sale')]) {
      expect(refusal(answer)).toEqual({ status: 403, code: 'FORBIDDEN' });
      expect(answer.json.hint).toBe('This operation needs the write:links scope.');
    }
  });

  it('lets write:links create, change and delete, but not list or get', async () => {
    const writer = as(manageSimulator(), { key: onlyScope('write:links') });
    const id = (await writer.post('/v1/links', LINK)).json.data.id;
    expect((await writer.patch(`/v1/links/${id}`, { title: 'New' })).status).toBe(200);
    expect(refusal(await writer.get('/v1/links'))).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect((await writer.get(`/v1/links/${id}`)).json.hint).toBe('This operation needs the read:links scope.');
    expect((await writer.delete(`/v1/links/${id}`)).status).toBe(200);
  });

  it('shows a website-restricted key only the links of its websites, and makes it attach new ones', async () => {
    const store = as(manageSimulator(), { key: 'key_acme_store_manage' });
    expect((await store.get('/v1/links')).json.data.map((l: { id: string }) => l.id)).toEqual(['link_acme_sale']);
    expect(refusal(await store.get('/v1/links/link_acme_launch'))).toEqual({ status: 403, code: 'ACCESS_DENIED' });
    expect(refusal(await store.post('/v1/links', LINK))).toEqual({ status: 403, code: 'ACCESS_DENIED' });
    expect(refusal(await store.post('/v1/links', { ...LINK, websiteId: 'web_acme_www' }))).toEqual({ status: 403, code: 'ACCESS_DENIED' });
    expect((await store.post('/v1/links', { ...LINK, websiteId: 'web_acme_store' })).status).toBe(201);
    expect(refusal(await store.patch('/v1/links/link_acme_sale', { websiteId: null }))).toEqual({ status: 403, code: 'ACCESS_DENIED' });
  });
});
