import { describe, expect, it } from 'vitest';
import { call } from '../../helpers/sim.js';
import { as, manageSimulator, type Client } from './support.js';

const LISTS = ['/v1/websites', '/v1/links', '/v1/monitors', '/v1/status-pages', '/v1/status-pages/sp_acme_status/incidents', '/v1/flags', '/v1/organization/settings'];

async function snapshot(client: Client): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const path of LISTS) {
    const answer = await client.get(path, { limit: '100' });
    out.push({ path, status: answer.status, data: answer.json.data, pagination: answer.json.pagination });
  }
  out.push((await client.get('/v1/public/status-pages/acme')).json.data);
  return out;
}

async function changeEverything(admin: Client): Promise<string[]> {
  const ids = [
    (await admin.post('/v1/websites', { name: 'W', domain: 'w.acme.io' })).json.data.id,
    (await admin.post('/v1/links', { targetUrl: 'https://acme.io/x' })).json.data.id,
    (await admin.post('/v1/monitors', { name: 'M', url: 'https://acme.io/' })).json.data.id,
    (await admin.post('/v1/status-pages', { name: 'P', slug: 'p' })).json.data.id,
    (await admin.post('/v1/status-pages/sp_acme_status/incidents', { title: 'T', message: 'M' })).json.data.id,
    (await admin.post('/v1/flags', { key: 'k' })).json.data.id,
  ];
  await admin.patch('/v1/websites/web_acme_www', { name: 'Changed' });
  await admin.delete('/v1/links/link_acme_sale');
  await admin.post('/v1/monitors/mon_acme_api/pause');
  await admin.put('/v1/status-pages/sp_acme_status/monitors', { monitorIds: [] });
  await admin.delete('/v1/flags/flag_acme_dark_mode');
  await admin.patch('/v1/organization/settings', { name: 'Changed Inc', timezone: 'UTC' });
  return ids;
}

describe('management state: reset and determinism', () => {
  it('POST /__sim/reset restores the seeded records', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    const seeded = await snapshot(admin);
    await changeEverything(admin);
    expect(await snapshot(admin)).not.toEqual(seeded);
    expect((await call(sim, 'POST', '/__sim/reset')).status).toBe(200);
    expect(await snapshot(admin)).toEqual(seeded);
  });

  it('issues the same ids on every run with the same seed, and again after a reset', async () => {
    const one = manageSimulator();
    const first = await changeEverything(as(one, { key: 'key_acme_all' }));
    const second = await changeEverything(as(manageSimulator(), { key: 'key_acme_all' }));
    expect(second).toEqual(first);
    await one.reset();
    expect(await changeEverything(as(one, { key: 'key_acme_all' }))).toEqual(first);
    expect(new Set(first).size).toBe(first.length);
  });

  it('issues other ids with another seed', async () => {
    const sim = manageSimulator();
    const first = await changeEverything(as(sim, { key: 'key_acme_all' }));
    await sim.reset('7');
    expect(await changeEverything(as(sim, { key: 'key_acme_all' }))).not.toEqual(first);
  });
});
