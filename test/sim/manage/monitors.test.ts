import { describe, expect, it } from 'vitest';
import { monitorSchemas } from '../../../src/contract/manage/monitors.js';
import { as, manageSimulator, onlyScope, refusal } from './support.js';

const MONITOR = { name: 'Checkout API', url: 'https://api.acme.io/checkout/health', intervalSeconds: 300 };

describe('uptime monitors: create, read, update, delete', () => {
  it('round-trips a monitor through every route', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    const created = await admin.post('/v1/monitors', MONITOR);
    expect(created.status).toBe(201);
    const monitor = monitorSchemas.item.parse(created.json).data;
    expect(monitor).toMatchObject({ ...MONITOR, organizationId: 'org_acme', websiteId: null, paused: false });
    expect(monitor.id).toMatch(/^mon_[a-z0-9]{12}$/);
    expect((await admin.get(`/v1/monitors/${monitor.id}`)).json.data).toEqual(monitor);
    const changed = await admin.patch(`/v1/monitors/${monitor.id}`, { name: 'Checkout', websiteId: 'web_acme_store' });
    expect(changed.json.data).toMatchObject({ name: 'Checkout', websiteId: 'web_acme_store', url: MONITOR.url });
    expect((await admin.delete(`/v1/monitors/${monitor.id}`)).json.data).toEqual({ id: monitor.id, deleted: true });
    expect(refusal(await admin.get(`/v1/monitors/${monitor.id}`))).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('defaults to a check every 60 seconds and lists the seeded monitors first', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    const created = (await admin.post('/v1/monitors', { name: 'Home', url: 'https://acme.io/' })).json.data;
    expect(created.intervalSeconds).toBe(60);
    const ids = (await admin.get('/v1/monitors')).json.data.map((m: { id: string }) => m.id);
    expect(ids).toEqual(['mon_acme_store', 'mon_acme_api', 'mon_acme_legacy', created.id]);
  });

  it('gives created monitors uptime checks through POST /v1/query with schedule_id', async () => {
    const sim = manageSimulator();
    const id = (await as(sim, { key: 'key_acme_all' }).post('/v1/monitors', MONITOR)).json.data.id;
    const answer = await as(sim, { key: 'key_acme_monitors' }).post('/v1/query', { parameters: ['uptime_overview'], preset: 'yesterday' }, { schedule_id: id });
    expect(answer.status).toBe(200);
    expect(answer.json.data[0].data[0].total_checks).toBe(86_400 / MONITOR.intervalSeconds);
  });

  it('regenerates checks after the interval changes', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    const query = () =>
      as(sim, { key: 'key_acme_monitors' }).post('/v1/query', { parameters: ['uptime_overview'], preset: 'yesterday' }, { schedule_id: 'mon_acme_api' });
    expect((await query()).json.data[0].data[0].total_checks).toBe(720);
    await admin.patch('/v1/monitors/mon_acme_api', { intervalSeconds: 600 });
    expect((await query()).json.data[0].data[0].total_checks).toBe(144);
  });

  it('lists its checks under the new URL once the URL changed', async () => {
    const sim = manageSimulator();
    const recentUrl = async (): Promise<unknown> => {
      const answer = await as(sim, { key: 'key_acme_monitors' }).post('/v1/query', { parameters: ['uptime_recent_checks'], preset: 'yesterday', limit: 1 }, { schedule_id: 'mon_acme_api' });
      return answer.json.data[0].data[0].url;
    };
    const before = await recentUrl();
    expect(before).not.toBe('https://api.acme.io/v2/health');
    await as(sim, { key: 'key_acme_all' }).patch('/v1/monitors/mon_acme_api', { url: 'https://api.acme.io/v2/health' });
    expect(await recentUrl()).toBe('https://api.acme.io/v2/health');
  });

  it('answers 422 naming the interval, the url and the name', async () => {
    const answer = await as(manageSimulator(), { key: 'key_acme_all' }).post('/v1/monitors', { name: '', url: 'not a url', intervalSeconds: 10 });
    expect(refusal(answer)).toEqual({ status: 422, code: 'VALIDATION' });
    expect(answer.json.details).toEqual([
      { field: 'body.name', message: 'Must not be empty' },
      { field: 'body.url', message: 'Must be an http or https URL' },
      { field: 'body.intervalSeconds', message: 'At least 30 seconds' },
    ]);
  });

  it('names the missing monitor in a 404, pause and resume included', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    for (const answer of [await admin.get('/v1/monitors/mon_nope'), await admin.post('/v1/monitors/mon_nope/pause'), await admin.post('/v1/monitors/mon_nope/resume')]) {
      expect(answer.status).toBe(404);
      expect(answer.json.error).toBe('Monitor not found');
    }
  });
});

describe('uptime monitors: pause and resume', () => {
  it('pauses and resumes a monitor, idempotently, stamping updatedAt only on a change', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    sim.clock.advance(5_000);
    const paused = await admin.post('/v1/monitors/mon_acme_store/pause');
    expect(paused.status).toBe(200);
    expect(paused.json.data).toMatchObject({ id: 'mon_acme_store', paused: true, updatedAt: new Date(sim.clock.now()).toISOString() });
    sim.clock.advance(5_000);
    const again = await admin.post('/v1/monitors/mon_acme_store/pause');
    expect(again.json.data).toEqual(paused.json.data);
    expect((await admin.get('/v1/monitors/mon_acme_store')).json.data.paused).toBe(true);
    const resumed = await admin.post('/v1/monitors/mon_acme_store/resume');
    expect(resumed.json.data.paused).toBe(false);
    expect(resumed.json.data.updatedAt).toBe(new Date(sim.clock.now()).toISOString());
  });

  it('shows a paused monitor as paused on the public status page', async () => {
    const sim = manageSimulator();
    await as(sim, { key: 'key_acme_all' }).post('/v1/monitors/mon_acme_api/pause');
    const page = await as(sim, 'anonymous').get('/v1/public/status-pages/acme');
    expect(page.json.data.monitors.find((m: { id: string }) => m.id === 'mon_acme_api').status).toBe('paused');
  });

  it('needs write:monitors: read:monitors may read but not pause', async () => {
    const sim = manageSimulator();
    const reader = as(sim, { key: onlyScope('read:monitors') });
    expect((await reader.get('/v1/monitors/mon_acme_store')).status).toBe(200);
    const refused = await reader.post('/v1/monitors/mon_acme_store/pause');
    expect(refusal(refused)).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect(refused.json.hint).toBe('This operation needs the write:monitors scope.');
    const writer = as(sim, { key: onlyScope('write:monitors') });
    expect((await writer.post('/v1/monitors/mon_acme_store/pause')).json.data.paused).toBe(true);
    expect(refusal(await writer.get('/v1/monitors'))).toEqual({ status: 403, code: 'FORBIDDEN' });
  });

  it('lets a website-restricted key manage only the monitors of its websites', async () => {
    const store = as(manageSimulator(), { key: 'key_acme_store_manage' });
    expect((await store.get('/v1/monitors')).json.data.map((m: { id: string }) => m.id)).toEqual(['mon_acme_store']);
    expect((await store.post('/v1/monitors/mon_acme_store/pause')).status).toBe(200);
    expect(refusal(await store.post('/v1/monitors/mon_acme_api/pause'))).toEqual({ status: 403, code: 'ACCESS_DENIED' });
  });
});
