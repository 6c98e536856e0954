import { Databuddy } from '@databuddy/sdk/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, type SimRequest, type Simulator } from '../../src/index.js';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { secretOf } from '../helpers/sim.js';
import { fetchAnswer } from '../helpers/wire.js';

/** The virtual clock's default start, 2025-06-02T12:00:00Z: events are stamped an hour or two before. */
const NOW = Date.UTC(2025, 5, 2, 12, 0, 0);

interface Served {
  readonly sim: Simulator;
  readonly server: RunningServer;
  /** Every request the SDK sent, as the simulator received it. */
  readonly received: SimRequest[];
}

const running: RunningServer[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** A simulator behind the node:http server on a free port, recording what reaches it. */
async function serve(sim: Simulator = createSimulator({ seed: 42 })): Promise<Served> {
  const received: SimRequest[] = [];
  const recording: Simulator = Object.create(sim, {
    handle: {
      value: (request: SimRequest, options?: Parameters<Simulator['handle']>[1]) => {
        received.push(request);
        return sim.handle(request, options);
      },
    },
  });
  const server = await startServer(recording, { port: 0 });
  running.push(server);
  return { sim, server, received };
}

/** Rows of custom_events for a website on June 2, read over HTTP with key_acme_read. */
async function customEvents(served: Served, websiteId: string): Promise<{ name: string; total_events: number; unique_users: number; unique_sessions: number }[]> {
  const answer = await fetchAnswer(`${served.server.url}/v1/query?website_id=${websiteId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': secretOf(served.sim, 'key_acme_read') },
    body: JSON.stringify({ parameters: ['custom_events'], startDate: '2025-06-02', endDate: '2025-06-02', filters: [{ field: 'event_name', op: 'starts_with', value: 'sdk_' }] }),
  });
  expect(answer.status).toBe(200);
  return answer.json.data[0].data;
}

describe('the official Node SDK (@databuddy/sdk/node) against the simulator', () => {
  it('tracks and flushes a batch with key_acme_track, and the events show in custom_events', async () => {
    const served = await serve();
    const db = new Databuddy({ apiKey: secretOf(served.sim, 'key_acme_track'), websiteId: 'web_acme_store', apiUrl: served.server.url, batchSize: 100, source: 'backend' });
    for (let i = 0; i < 30; i++) {
      const queued = await db.track({
        name: i % 3 === 0 ? 'sdk_signup' : 'sdk_checkout',
        timestamp: NOW - 2 * 3_600_000 + i * 60_000,
        anonymousId: `anon_${i % 4}`,
        sessionId: `sess_${i % 6}`,
        properties: { plan: i % 2 === 0 ? 'pro' : 'free', index: i },
      });
      expect(queued).toEqual({ success: true });
    }
    expect(served.received).toHaveLength(0);

    const flushed = await db.flush();
    expect(flushed).toMatchObject({ success: true, processed: 30 });

    // What the SDK sent: one POST /track, JSON, the key as a bearer token, an array of events.
    expect(served.received).toHaveLength(1);
    const [request] = served.received as [SimRequest];
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/track');
    expect(request.query).toEqual({});
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe(`Bearer ${secretOf(served.sim, 'key_acme_track')}`);
    const sent = JSON.parse(request.body ?? 'null') as Record<string, unknown>[];
    expect(sent).toHaveLength(30);
    expect(sent[0]).toEqual({
      name: 'sdk_signup',
      timestamp: NOW - 2 * 3_600_000,
      properties: { plan: 'pro', index: 0 },
      anonymousId: 'anon_0',
      sessionId: 'sess_0',
      websiteId: 'web_acme_store',
      source: 'backend',
    });

    const rows = await customEvents(served, 'web_acme_store');
    expect(rows.map((r) => [r.name, r.total_events, r.unique_users, r.unique_sessions])).toEqual([
      ['sdk_checkout', 20, 4, 4],
      ['sdk_signup', 10, 4, 2],
    ]);
    expect(await customEvents(served, 'web_acme_www')).toEqual([]);
    expect(served.sim.journal.list({ route: '/track' })).toEqual([expect.objectContaining({ keyId: 'key_acme_track', status: 200, outcome: 'admitted' })]);
  });

  it('flushes by itself when a batch is full, and sends one event per request with batching off', async () => {
    const served = await serve();
    const key = secretOf(served.sim, 'key_acme_track');
    const batching = new Databuddy({ apiKey: key, websiteId: 'web_acme_docs', apiUrl: served.server.url, batchSize: 5 });
    for (let i = 0; i < 5; i++) await batching.track({ name: 'sdk_auto', timestamp: NOW - 60_000 });
    expect(served.received).toHaveLength(1);

    const single = new Databuddy({ apiKey: key, websiteId: 'web_acme_docs', apiUrl: served.server.url, enableBatching: false });
    expect(await single.track({ name: 'sdk_single', timestamp: NOW - 60_000, profileId: 'user_42' })).toEqual({ success: true });
    expect(served.received).toHaveLength(2);
    expect(JSON.parse(served.received[1]?.body ?? 'null')).toEqual({ name: 'sdk_single', timestamp: NOW - 60_000, properties: {}, profileId: 'user_42', websiteId: 'web_acme_docs' });

    const rows = await customEvents(served, 'web_acme_docs');
    // Ordered by users first: the sdk_auto events carry no anonymousId or profileId, so no user.
    expect(rows.map((r) => [r.name, r.total_events])).toEqual([
      ['sdk_single', 1],
      ['sdk_auto', 5],
    ]);
  });

  it('sends with a website id alone when its key is not a valid one: the simulator falls back to the website', async () => {
    const served = await serve();
    // The SDK insists on an apiKey; an unknown one counts as none and the events' websiteId identifies the sender.
    const db = new Databuddy({ apiKey: `dbdy_${'0'.repeat(48)}`, websiteId: 'web_acme_www', apiUrl: served.server.url });
    await db.track({ name: 'sdk_by_website', timestamp: NOW - 60_000 });
    expect(await db.flush()).toMatchObject({ success: true, processed: 1 });
    expect((await customEvents(served, 'web_acme_www')).map((r) => [r.name, r.total_events])).toEqual([['sdk_by_website', 1]]);
  });

  it('reports a refusal as an unsuccessful result: a key without track:events gets 403', async () => {
    const served = await serve();
    const db = new Databuddy({ apiKey: secretOf(served.sim, 'key_acme_read'), websiteId: 'web_acme_www', apiUrl: served.server.url });
    await db.track({ name: 'sdk_refused', timestamp: NOW - 60_000 });
    expect(await db.flush()).toEqual({ success: false, error: 'HTTP 403: Forbidden' });
    expect(await customEvents(served, 'web_acme_www')).toEqual([]);
  });

  it('sends track, batch, flush and identify with one key, all answered 2xx, and the events show in custom_events with the profile stored', async () => {
    const served = await serve();
    const key = secretOf(served.sim, 'key_acme_track');
    const db = new Databuddy({ apiKey: key, websiteId: 'web_acme_store', apiUrl: served.server.url, batchSize: 50 });
    expect(await db.track({ name: 'sdk_trip_signup', timestamp: NOW - 30 * 60_000, anonymousId: 'anon_trip', sessionId: 'sess_trip' })).toEqual({ success: true });
    const batch = await db.batch([
      { type: 'custom', name: 'sdk_trip_step', timestamp: NOW - 20 * 60_000, anonymousId: 'anon_trip', sessionId: 'sess_trip', eventId: 'trip_1' },
      { type: 'custom', name: 'sdk_trip_step', timestamp: NOW - 10 * 60_000, profileId: 'customer_trip', sessionId: 'sess_trip', eventId: 'trip_2' },
    ]);
    expect(batch).toMatchObject({ success: true, processed: 2 });
    expect(await db.flush()).toMatchObject({ success: true, processed: 1 });
    expect(await db.identify({ profileId: ' customer_trip ', anonymousId: 'anon_trip', traits: { name: 'Trip Tester', email: 'Trip@Example.com', plan: 'team' } })).toEqual({ success: true });

    // What the SDK sent: two POST /track (the batch, then the flushed queue) and one POST /identify, each with the key as a bearer token.
    expect(served.received.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /track', 'POST /track', 'POST /identify']);
    for (const request of served.received) expect(request.headers.authorization).toBe(`Bearer ${key}`);
    expect(JSON.parse(served.received[2]?.body ?? 'null')).toEqual({ profileId: 'customer_trip', anonymousId: 'anon_trip', traits: { name: 'Trip Tester', email: 'Trip@Example.com', plan: 'team' }, websiteId: 'web_acme_store' });
    expect(served.sim.journal.list({}).filter((e) => e.route === '/track' || e.route === '/identify').map((e) => [e.route, e.status])).toEqual([
      ['/track', 200],
      ['/track', 200],
      ['/identify', 200],
    ]);

    const rows = await customEvents(served, 'web_acme_store');
    expect(rows.map((r) => [r.name, r.total_events])).toEqual([
      ['sdk_trip_step', 2],
      ['sdk_trip_signup', 1],
    ]);
    const profiles = await fetchAnswer(`${served.server.url}/__sim/profiles?website_id=web_acme_store`);
    expect(profiles.json.profiles).toEqual([
      expect.objectContaining({ profileId: 'customer_trip', displayName: 'Trip Tester', email: 'trip@example.com', traits: { plan: 'team' }, anonymousIds: ['anon_trip'] }),
    ]);
  });

  it('reports a refused identify as an unsuccessful result: a key without track:events gets 403', async () => {
    const served = await serve();
    const db = new Databuddy({ apiKey: secretOf(served.sim, 'key_acme_read'), websiteId: 'web_acme_store', apiUrl: served.server.url });
    expect(await db.identify({ profileId: 'nobody' })).toEqual({ success: false, error: 'HTTP 403: Forbidden' });
  });

  it('stamps events without a timestamp with the wall clock: a simulator on the real clock takes them, a virtual clock in the past refuses them', async () => {
    const real = await serve(createSimulator({ seed: 42, clock: 'real', realNow: Date.now }));
    const key = secretOf(real.sim, 'key_acme_track');
    const live = new Databuddy({ apiKey: key, websiteId: 'web_acme_www', apiUrl: real.server.url });
    await live.track({ name: 'sdk_now' });
    expect(await live.flush()).toMatchObject({ success: true, processed: 1 });

    const virtual = await serve();
    const past = new Databuddy({ apiKey: key, websiteId: 'web_acme_www', apiUrl: virtual.server.url });
    await past.track({ name: 'sdk_now' });
    expect(await past.flush()).toEqual({ success: false, error: 'HTTP 400: Bad Request' });
    const refusal = virtual.sim.journal.list({ route: '/track' })[0];
    expect(refusal?.status).toBe(400);
  });
});
