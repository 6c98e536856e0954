import { describe, expect, it } from 'vitest';
import { incidentSchemas, pageMonitorsResponseSchema, publicStatusPageResponseSchema, statusPageSchemas } from '../../../src/contract/manage/status-pages.js';
import { as, manageSimulator, onlyScope, refusal } from './support.js';

const PAGE = { name: 'Acme Checkout', slug: 'acme-checkout', description: 'Payments and checkout', monitorIds: ['mon_acme_store'] };
const INCIDENT = { title: 'Payments failing', message: 'Card payments fail for some customers.' };

describe('status pages: create, read, update, delete', () => {
  it('lists the seeded pages of the organization, drafts included', async () => {
    const answer = await as(manageSimulator(), { key: 'key_acme_all' }).get('/v1/status-pages');
    const list = statusPageSchemas.list.parse(answer.json);
    expect(list.data.map((p) => [p.slug, p.published])).toEqual([
      ['acme', true],
      ['acme-store', true],
      ['acme-internal', false],
    ]);
  });

  it('round-trips a page through every route', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    const created = await admin.post('/v1/status-pages', PAGE);
    expect(created.status).toBe(201);
    const page = statusPageSchemas.item.parse(created.json).data;
    expect(page).toMatchObject({ ...PAGE, organizationId: 'org_acme', websiteId: null, published: true });
    expect(page.id).toMatch(/^sp_[a-z0-9]{12}$/);
    expect((await admin.get(`/v1/status-pages/${page.id}`)).json.data).toEqual(page);
    const changed = await admin.patch(`/v1/status-pages/${page.id}`, { name: 'Checkout', description: null, published: false });
    expect(changed.json.data).toMatchObject({ name: 'Checkout', description: null, published: false, slug: PAGE.slug });
    await admin.post(`/v1/status-pages/${page.id}/incidents`, INCIDENT);
    expect((await admin.delete(`/v1/status-pages/${page.id}`)).json.data).toEqual({ id: page.id, deleted: true });
    expect(refusal(await admin.get(`/v1/status-pages/${page.id}`))).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(refusal(await admin.get(`/v1/status-pages/${page.id}/incidents`))).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('keeps slugs unique (409) and validates them (422 naming the field)', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    expect(refusal(await admin.post('/v1/status-pages', { ...PAGE, slug: 'globex' }))).toEqual({ status: 409, code: 'CONFLICT' });
    const bad = await admin.post('/v1/status-pages', { ...PAGE, slug: 'Acme Checkout', monitorIds: ['mon_acme_store', 'mon_acme_store'] });
    expect(refusal(bad)).toEqual({ status: 422, code: 'VALIDATION' });
    expect(bad.json.details.map((d: { field: string }) => d.field)).toEqual(['body.slug', 'body.monitorIds']);
  });

  it('names the missing page in a 404', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    const answer = await admin.get('/v1/status-pages/sp_nope');
    expect(answer.status).toBe(404);
    expect(answer.json.error).toBe('Status page not found');
    expect((await admin.put('/v1/status-pages/sp_nope/monitors', { monitorIds: [] })).status).toBe(404);
  });
});

describe('status pages: which monitors a page shows', () => {
  it('reads and replaces the monitors a page shows, in order', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    const seeded = pageMonitorsResponseSchema.parse((await admin.get('/v1/status-pages/sp_acme_status/monitors')).json).data;
    expect(seeded.monitorIds).toEqual(['mon_acme_store', 'mon_acme_api']);
    expect(seeded.monitors[0]).toEqual({ id: 'mon_acme_store', name: 'Acme Store homepage', url: 'https://store.acme.io/', paused: false });
    const replaced = await admin.put('/v1/status-pages/sp_acme_status/monitors', { monitorIds: ['mon_acme_legacy', 'mon_acme_store'] });
    expect(replaced.json.data.monitorIds).toEqual(['mon_acme_legacy', 'mon_acme_store']);
    expect((await admin.get('/v1/status-pages/sp_acme_status')).json.data.monitorIds).toEqual(['mon_acme_legacy', 'mon_acme_store']);
  });

  it('refuses monitors of other organizations or unknown ones, naming each (400)', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    const answer = await admin.put('/v1/status-pages/sp_acme_status/monitors', { monitorIds: ['mon_acme_api', 'mon_globex_app', 'mon_nope'] });
    expect(refusal(answer)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    expect(answer.json.details.map((d: { field: string }) => d.field)).toEqual(['body.monitorIds[1]', 'body.monitorIds[2]']);
  });

  it('takes a deleted monitor off every page', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    await admin.delete('/v1/monitors/mon_acme_store');
    expect((await admin.get('/v1/status-pages/sp_acme_status')).json.data.monitorIds).toEqual(['mon_acme_api']);
    expect((await admin.get('/v1/status-pages/sp_acme_store')).json.data.monitorIds).toEqual([]);
  });

  it('lets a website-restricted key show only monitors it reaches on pages it reaches', async () => {
    const store = as(manageSimulator(), { key: 'key_acme_store_manage' });
    expect((await store.get('/v1/status-pages')).json.data.map((p: { id: string }) => p.id)).toEqual(['sp_acme_store']);
    expect(refusal(await store.get('/v1/status-pages/sp_acme_status/monitors'))).toEqual({ status: 403, code: 'ACCESS_DENIED' });
    const denied = await store.put('/v1/status-pages/sp_acme_store/monitors', { monitorIds: ['mon_acme_store', 'mon_acme_api'] });
    expect(refusal(denied)).toEqual({ status: 403, code: 'ACCESS_DENIED' });
    expect(denied.json.error).toBe('Access denied to this monitor');
  });
});

describe('status pages: incidents', () => {
  it('opens an incident with its first update and the defaults', async () => {
    const sim = manageSimulator();
    const created = await as(sim, { key: 'key_acme_all' }).post('/v1/status-pages/sp_acme_status/incidents', INCIDENT);
    expect(created.status).toBe(201);
    const incident = incidentSchemas.item.parse(created.json).data;
    const now = new Date(sim.clock.now()).toISOString();
    expect(incident).toMatchObject({ title: INCIDENT.title, status: 'investigating', impact: 'minor', statusPageId: 'sp_acme_status', resolvedAt: null, createdAt: now });
    expect(incident.updates).toEqual([{ id: expect.stringMatching(/^upd_/), status: 'investigating', message: INCIDENT.message, createdAt: now }]);
  });

  it('walks an incident from investigating to resolved, and reopens it', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    const id = (await admin.post('/v1/status-pages/sp_acme_status/incidents', { ...INCIDENT, impact: 'major' })).json.data.id;
    const path = `/v1/status-pages/sp_acme_status/incidents/${id}`;
    sim.clock.advance(600_000);
    const identified = await admin.patch(path, { status: 'identified', message: 'A certificate expired.', title: 'Payments failing (card)' });
    expect(identified.json.data).toMatchObject({ status: 'identified', title: 'Payments failing (card)', impact: 'major' });
    sim.clock.advance(600_000);
    const noted = await admin.post(`${path}/updates`, { message: 'Still working on it.' });
    expect(noted.status).toBe(201);
    expect(noted.json.data.status).toBe('identified');
    sim.clock.advance(600_000);
    const resolved = await admin.post(`${path}/updates`, { status: 'resolved', message: 'Fixed.' });
    expect(resolved.json.data.resolvedAt).toBe(new Date(sim.clock.now()).toISOString());
    expect(resolved.json.data.updates.map((u: { status: string }) => u.status)).toEqual(['investigating', 'identified', 'identified', 'resolved']);
    const impactOnly = await admin.patch(path, { impact: 'minor' });
    expect(impactOnly.json.data.updates).toHaveLength(4);
    const reopened = await admin.patch(path, { status: 'investigating' });
    expect(reopened.json.data).toMatchObject({ status: 'investigating', resolvedAt: null });
    expect(reopened.json.data.updates.at(-1).message).toBe('Status changed to investigating.');
    expect((await admin.get(path)).json.data).toEqual(reopened.json.data);
    expect((await admin.delete(path)).json.data).toEqual({ id, deleted: true });
    expect(refusal(await admin.get(path))).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('lists the incidents of a page by creation', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    const seeded = await admin.get('/v1/status-pages/sp_acme_status/incidents');
    expect(seeded.json.data.map((i: { id: string }) => i.id)).toEqual(['inc_acme_checkout', 'inc_acme_api_latency']);
    expect(seeded.json.data[0].updates).toHaveLength(4);
  });

  it('answers 404 for an incident of another page and 422 for an unknown status or impact', async () => {
    const admin = as(manageSimulator(), { key: 'key_acme_all' });
    const elsewhere = await admin.get('/v1/status-pages/sp_acme_store/incidents/inc_acme_checkout');
    expect(refusal(elsewhere)).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(elsewhere.json.error).toBe('Incident not found');
    const bad = await admin.post('/v1/status-pages/sp_acme_status/incidents', { ...INCIDENT, status: 'fixed', impact: 'huge' });
    expect(bad.json.details.map((d: { field: string }) => d.field)).toEqual(['body.status', 'body.impact']);
    const noMessage = await admin.post('/v1/status-pages/sp_acme_status/incidents/inc_acme_api_latency/updates', { status: 'resolved' });
    expect(noMessage.json.details).toEqual([{ field: 'body.message', message: 'Invalid input: expected string, received undefined' }]);
  });

  it('needs read:status_pages to read incidents and write:status_pages to change them', async () => {
    const sim = manageSimulator();
    const reader = as(sim, { key: onlyScope('read:status_pages') });
    expect((await reader.get('/v1/status-pages/sp_acme_status/incidents/inc_acme_checkout')).status).toBe(200);
    expect(refusal(await reader.post('/v1/status-pages/sp_acme_status/incidents', INCIDENT))).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect(refusal(await reader.put('/v1/status-pages/sp_acme_status/monitors', { monitorIds: [] }))).toEqual({ status: 403, code: 'FORBIDDEN' });
    const writer = as(sim, { key: onlyScope('write:status_pages') });
    expect((await writer.post('/v1/status-pages/sp_acme_status/incidents', INCIDENT)).status).toBe(201);
    expect(refusal(await writer.get('/v1/status-pages/sp_acme_status/incidents'))).toEqual({ status: 403, code: 'FORBIDDEN' });
  });
});

describe('status pages: the public read', () => {
  it('answers a published page by slug with no credential at all', async () => {
    const answer = await as(manageSimulator(), 'anonymous').get('/v1/public/status-pages/acme');
    expect(answer.status).toBe(200);
    const page = publicStatusPageResponseSchema.parse(answer.json).data;
    expect(page).toMatchObject({ name: 'Acme Status', slug: 'acme', status: 'degraded' });
    expect(page.monitors.map((m) => m.id)).toEqual(['mon_acme_store', 'mon_acme_api']);
    for (const monitor of page.monitors) {
      expect(['up', 'down']).toContain(monitor.status);
      expect(Date.parse(monitor.lastCheckedAt as string)).toBeLessThanOrEqual(Date.UTC(2025, 5, 2, 12));
      expect(monitor.uptime24h).toBeGreaterThan(90);
    }
    expect(page.activeIncidents.map((i) => i.id)).toEqual(['inc_acme_api_latency']);
    expect(page.recentIncidents.map((i) => i.id)).toEqual(['inc_acme_checkout']);
    expect(JSON.stringify(page)).not.toContain('organizationId');
  });

  it('answers the same for any credential, a foreign one included', async () => {
    const sim = manageSimulator();
    const anonymous = await as(sim, 'anonymous').get('/v1/public/status-pages/acme');
    const foreign = await as(sim, { key: 'key_globex_read' }).get('/v1/public/status-pages/acme');
    expect({ ...foreign.json, requestId: '' }).toEqual({ ...anonymous.json, requestId: '' });
  });

  it('answers 404 for a draft, an unknown slug and a deleted page', async () => {
    const sim = manageSimulator();
    const visitor = as(sim, 'anonymous');
    expect(refusal(await visitor.get('/v1/public/status-pages/acme-internal'))).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(refusal(await visitor.get('/v1/public/status-pages/nope'))).toEqual({ status: 404, code: 'NOT_FOUND' });
    await as(sim, { key: 'key_acme_all' }).delete('/v1/status-pages/sp_acme_status');
    expect(refusal(await visitor.get('/v1/public/status-pages/acme'))).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('follows what the management routes change: publishing, monitors, incidents', async () => {
    const sim = manageSimulator();
    const admin = as(sim, { key: 'key_acme_all' });
    const visitor = as(sim, 'anonymous');
    const monitor = (await admin.post('/v1/monitors', { name: 'New', url: 'https://new.acme.io/' })).json.data;
    const page = (await admin.post('/v1/status-pages', { ...PAGE, published: false, monitorIds: [monitor.id, 'mon_acme_api'] })).json.data;
    expect((await visitor.get(`/v1/public/status-pages/${PAGE.slug}`)).status).toBe(404);
    await admin.patch(`/v1/status-pages/${page.id}`, { published: true });
    const fresh = (await visitor.get(`/v1/public/status-pages/${PAGE.slug}`)).json.data;
    expect(fresh.status).toBe('operational');
    expect(fresh.monitors[0]).toEqual({ id: monitor.id, name: 'New', status: 'unknown', lastCheckedAt: null, responseTimeMs: null, uptime24h: null });
    sim.clock.advance(10 * 60_000);
    expect((await visitor.get(`/v1/public/status-pages/${PAGE.slug}`)).json.data.monitors[0].status).not.toBe('unknown');
    await admin.post(`/v1/status-pages/${page.id}/incidents`, { ...INCIDENT, impact: 'critical' });
    const outage = (await visitor.get(`/v1/public/status-pages/${PAGE.slug}`)).json.data;
    expect(outage.status).toBe('major_outage');
    expect(outage.activeIncidents[0]).toMatchObject({ title: INCIDENT.title, impact: 'critical', status: 'investigating' });
  });
});
