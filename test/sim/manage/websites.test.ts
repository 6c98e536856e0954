import { describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../src/contract/errors.js';
import { deletedResponseSchema } from '../../../src/contract/manage/common.js';
import { websiteSchemas } from '../../../src/contract/manage/websites.js';
import { as, ISO_MS, manageSimulator, refusal } from './support.js';

const NEW_SITE = { name: 'Acme Careers', domain: 'careers.acme.io' };

describe('websites: create, read, update, delete', () => {
  it('round-trips a website through every route, with ISO timestamps from the simulator clock', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    const created = await admin.post('/v1/websites', NEW_SITE);
    expect(created.status).toBe(201);
    const website = websiteSchemas.item.parse(created.json).data;
    expect(website).toMatchObject({ ...NEW_SITE, organizationId: 'org_acme', isPublic: false, trafficSize: 'small' });
    expect(website.id).toMatch(/^web_[a-z0-9]{12}$/);
    expect(website.createdAt).toBe(new Date(sim.clock.now()).toISOString());
    expect(website.updatedAt).toBe(website.createdAt);

    expect((await admin.get(`/v1/websites/${website.id}`)).json.data).toEqual(website);

    sim.clock.advance(60_000);
    const changed = await admin.patch(`/v1/websites/${website.id}`, { name: 'Acme Jobs', isPublic: true });
    expect(changed.status).toBe(200);
    expect(changed.json.data).toMatchObject({ id: website.id, name: 'Acme Jobs', isPublic: true, domain: NEW_SITE.domain });
    expect(changed.json.data.createdAt).toBe(website.createdAt);
    expect(changed.json.data.updatedAt).toMatch(ISO_MS);
    expect(Date.parse(changed.json.data.updatedAt) - Date.parse(website.createdAt)).toBe(60_000);

    const deleted = await admin.delete(`/v1/websites/${website.id}`);
    expect(deletedResponseSchema.parse(deleted.json).data).toEqual({ id: website.id, deleted: true });
    expect(refusal(await admin.get(`/v1/websites/${website.id}`))).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('lists the seeded websites of the organization by creation, then the new one last', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    const before = websiteSchemas.list.parse((await admin.get('/v1/websites')).json);
    expect(before.data.map((w) => w.id)).toEqual(['web_acme_www', 'web_acme_store', 'web_acme_blog', 'web_acme_docs', 'web_acme_labs']);
    expect(before.data.map((w) => w.trafficSize)).toEqual(['small', 'large', 'medium', 'medium', 'tiny']);
    const created = await admin.post('/v1/websites', NEW_SITE);
    const after = (await admin.get('/v1/websites')).json;
    expect(after.data.map((w: { id: string }) => w.id).at(-1)).toBe(created.json.data.id);
    expect(after.pagination).toEqual({ page: 1, limit: 20, total: 6, hasMore: false });
  });

  it('names the missing website in a 404 on get, update and delete', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    for (const answer of [
      await admin.get('/v1/websites/web_nope'),
      await admin.patch('/v1/websites/web_nope', { name: 'x' }),
      await admin.delete('/v1/websites/web_nope'),
    ]) {
      expect(answer.status).toBe(404);
      expect(errorBodySchema.parse(answer.json)).toMatchObject({ code: 'NOT_FOUND', error: 'Website not found' });
      expect(answer.json.hint).toContain('web_nope');
    }
  });

  it('refuses a second website with the same domain in the organization (409), on create and update', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    expect(refusal(await admin.post('/v1/websites', { name: 'Copy', domain: 'Store.Acme.io' }))).toEqual({ status: 409, code: 'CONFLICT' });
    expect(refusal(await admin.patch('/v1/websites/web_acme_www', { domain: 'blog.acme.io' }))).toEqual({ status: 409, code: 'CONFLICT' });
    const globex = as(manageSimulator(), { key: 'key_globex_all' });
    expect((await globex.post('/v1/websites', { name: 'Mirror', domain: 'store.acme.io' })).status).toBe(201);
  });
});

describe('websites: validation', () => {
  it('answers 422 with details naming each wrong field', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    const answer = await admin.post('/v1/websites', { name: '  ', domain: 'https://shop.example.com/x', trafficSize: 'giant', isPublic: 'yes' });
    expect(refusal(answer)).toEqual({ status: 422, code: 'VALIDATION' });
    const fields = answer.json.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['body.name', 'body.domain', 'body.trafficSize', 'body.isPublic']));
    expect(answer.json.details.find((d: { field: string }) => d.field === 'body.domain').message).toMatch(/domain name/);
  });

  it('requires name and domain, refuses unknown fields and an empty change', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    const missing = await admin.post('/v1/websites', {});
    expect(missing.json.details.map((d: { field: string }) => d.field)).toEqual(['body.name', 'body.domain']);
    const unknown = await admin.post('/v1/websites', { ...NEW_SITE, owner: 'me' });
    expect(unknown.status).toBe(422);
    expect(unknown.json.details[0].message).toContain('owner');
    const empty = await admin.patch('/v1/websites/web_acme_www', {});
    expect(empty.status).toBe(422);
    expect(empty.json.details).toEqual([{ field: 'body', message: 'Send at least one field to change' }]);
    expect(refusal(await admin.post('/v1/websites'))).toEqual({ status: 422, code: 'VALIDATION' });
  });

  it('lower-cases and trims the domain it stores', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    const created = await admin.post('/v1/websites', { name: ' Shop ', domain: ' Shop.ACME.io ' });
    expect(created.json.data).toMatchObject({ name: 'Shop', domain: 'shop.acme.io' });
  });
});

describe('websites: created websites are real to the Query API', () => {
  it('appears in GET /v1/query/websites for keys that reach it, not for restricted ones', async () => {
    const sim = manageSimulator();
    const id = (await as(sim, { key: 'key_acme_all' }).post('/v1/websites', NEW_SITE)).json.data.id;
    const listed = await as(sim, { key: 'key_acme_read' }).get('/v1/query/websites');
    expect(listed.json.websites.at(-1)).toMatchObject({ id, ...NEW_SITE, organizationName: 'Acme Inc' });
    expect(listed.json.total).toBe(6);
    const restricted = await as(sim, { key: 'key_acme_store_only' }).get('/v1/query/websites');
    expect(restricted.json.websites.map((w: { id: string }) => w.id)).toEqual(['web_acme_store']);
    const session = await as(sim, { user: 'user_alice' }).get('/v1/query/websites');
    expect(session.json.websites.map((w: { id: string }) => w.id)).toContain(id);
  });

  it('answers summary_metrics with generated traffic, about 150 sessions a day by default', async () => {
    const sim = manageSimulator();
    const id = (await as(sim, { key: 'key_acme_all' }).post('/v1/websites', NEW_SITE)).json.data.id;
    const answer = await as(sim, { key: 'key_acme_read' }).post('/v1/query', { parameters: ['summary_metrics'], preset: 'last_7d' }, { website_id: id });
    expect(answer.status).toBe(200);
    const rows = answer.json.data[0].data as { date: string; pageviews: number; visitors: number; sessions: number }[];
    expect(rows).toHaveLength(7);
    for (const row of rows) {
      expect(row.pageviews).toBeGreaterThan(0);
      expect(row.sessions).toBeGreaterThan(30);
      expect(row.sessions).toBeLessThan(600);
    }
  });

  it('follows trafficSize, on create and on update', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    const reader = as(sim, { key: 'key_acme_read' });
    const sessionsOf = async (websiteId: string): Promise<number> => {
      const answer = await reader.post('/v1/query', { parameters: ['summary_metrics'], preset: 'last_7d' }, { website_id: websiteId });
      return (answer.json.data[0].data as { sessions: number }[]).reduce((sum, r) => sum + r.sessions, 0);
    };
    const tiny = (await admin.post('/v1/websites', { name: 'Tiny', domain: 'tiny.acme.io', trafficSize: 'tiny' })).json.data;
    const medium = (await admin.post('/v1/websites', { name: 'Medium', domain: 'medium.acme.io', trafficSize: 'medium' })).json.data;
    expect(tiny.trafficSize).toBe('tiny');
    const tinySessions = await sessionsOf(tiny.id);
    expect(tinySessions).toBeLessThan(150);
    expect(await sessionsOf(medium.id)).toBeGreaterThan(5_000);
    await admin.patch(`/v1/websites/${tiny.id}`, { trafficSize: 'large' });
    expect(await sessionsOf(tiny.id)).toBeGreaterThan(50_000);
  });

  it('answers with the new domain once the domain changed, as a simulator that never asked before it does', async () => {
    const serversAfterRename = async (askFirst: boolean): Promise<unknown> => {
      const sim = manageSimulator();
      const servers = async (): Promise<unknown> => {
        const answer = await as(sim, { key: 'key_acme_read' }).post('/v1/query', { parameters: ['mcp_summary'], startDate: '2025-05-12', endDate: '2025-05-18' }, { website_id: 'web_acme_www' });
        return answer.json.data[0].data[0].servers;
      };
      if (askFirst) expect(await servers()).toEqual(['acme-mcp']);
      expect((await as(sim, { key: 'key_acme_all' }).patch('/v1/websites/web_acme_www', { domain: 'renamed.example' })).status).toBe(200);
      return servers();
    };
    expect(await serversAfterRename(false)).toEqual(['renamed-mcp']);
    expect(await serversAfterRename(true)).toEqual(['renamed-mcp']);
  });

  it('is gone from the Query API once deleted, and what was attached to it stays, detached', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    const id = (await admin.post('/v1/websites', NEW_SITE)).json.data.id;
    const link = (await admin.post('/v1/links', { targetUrl: 'https://careers.acme.io/', websiteId: id })).json.data;
    const monitor = (await admin.post('/v1/monitors', { name: 'Careers', url: 'https://careers.acme.io/', websiteId: id })).json.data;
    const flag = (await admin.post('/v1/flags', { key: 'careers-banner', websiteId: id })).json.data;
    await admin.patch('/v1/organization/settings', { defaultWebsiteId: id });
    await admin.delete(`/v1/websites/${id}`);
    const query = await as(sim, { key: 'key_acme_read' }).post('/v1/query', { parameters: ['summary_metrics'], preset: 'last_7d' }, { website_id: id });
    expect(refusal(query)).toEqual({ status: 403, code: 'ACCESS_DENIED' });
    expect((await admin.get(`/v1/links/${link.id}`)).json.data.websiteId).toBeNull();
    expect((await admin.get(`/v1/monitors/${monitor.id}`)).json.data.websiteId).toBeNull();
    expect((await admin.get(`/v1/flags/${flag.id}`)).json.data.websiteId).toBeNull();
    expect((await admin.get('/v1/organization/settings')).json.data.defaultWebsiteId).toBeNull();
  });
});

describe('websites: reach', () => {
  it('shows a website-restricted key only its websites, and lets it change them', async () => {
    const sim = manageSimulator();
    const store = as(sim, { key: 'key_acme_store_manage' });
    const listed = await store.get('/v1/websites');
    expect(listed.json.data.map((w: { id: string }) => w.id)).toEqual(['web_acme_store']);
    expect((await store.patch('/v1/websites/web_acme_store', { name: 'The Store' })).json.data.name).toBe('The Store');
    const other = await store.get('/v1/websites/web_acme_www');
    expect(refusal(other)).toEqual({ status: 403, code: 'ACCESS_DENIED' });
    expect(other.json.error).toBe('Access denied to this website');
  });

  it('does not let a website-restricted key create websites', async () => {
    const answer = await as(manageSimulator(), { key: 'key_acme_store_manage' }).post('/v1/websites', NEW_SITE);
    expect(refusal(answer)).toEqual({ status: 403, code: 'ACCESS_DENIED' });
    expect(answer.json.hint).toMatch(/cannot create websites/);
  });
});
