import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { createSandboxRegistry, type SandboxOverrides } from '../../src/http/sandboxes/sandbox-registry.js';
import { createSimulator } from '../../src/index.js';
import type { Answer } from '../helpers/sim.js';
import { secretOf } from '../helpers/sim.js';
import { fetchAnswer } from '../helpers/wire.js';

const START = Date.UTC(2025, 5, 2, 12);
const TOKEN = 'sandbox-control-token-0123456789';
const QUERY = JSON.stringify({ parameters: ['summary_metrics'], preset: 'last_7d' });

/** The server's own options, and a sandbox's: the same but the overrides (what the CLI does). */
function simulatorWith(overrides: Partial<SandboxOverrides>, extra: { controlToken?: string } = {}) {
  return createSimulator({
    seed: overrides.seed ?? 42,
    clock: overrides.clock ?? 'virtual',
    startMs: overrides.startMs ?? START,
    profile: overrides.profile ?? 'spec',
    ...(overrides.world !== undefined ? { world: overrides.world } : {}),
    ...extra,
  });
}

/** A request sent exactly as written (fetch would resolve `..` and refuse some bytes). */
function sendRaw(url: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, method: 'GET', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: {}, text, json: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    req.end();
  });
}

const post = (url: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetchAnswer(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

describe('sandboxes on one server', () => {
  const defaultSim = simulatorWith({});
  let wallMs = 1_000_000;
  const registry = createSandboxRegistry({ create: (o) => simulatorWith(o), maxSandboxes: 3, idleMs: 60_000, now: () => wallMs });
  let server: RunningServer;
  let plain: RunningServer;
  const key = secretOf(defaultSim, 'key_acme_read');

  beforeAll(async () => {
    server = await startServer(defaultSim, { port: 0, sandboxes: registry });
    plain = await startServer(simulatorWith({}), { port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await plain.close();
  });

  it('creates a sandbox with 201, its id, base URL, seed, profile and clock, and lists it', async () => {
    const created = await post(`${server.url}/__sim/sandboxes`, { id: 'alpha', seed: 7, profile: 'live', now: '2025-01-01T00:00:00Z' });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: 'alpha',
      baseUrl: `${server.url}/__sandbox/alpha`,
      seed: '7',
      profile: 'live',
      clock: { mode: 'virtual', now: Date.UTC(2025, 0, 1), iso: '2025-01-01T00:00:00.000Z' },
    });
    wallMs += 250;
    const listed = await fetchAnswer(`${server.url}/__sim/sandboxes`);
    expect(listed.json).toEqual({
      sandboxes: [{ id: 'alpha', seed: '7', profile: 'live', createdAt: new Date(1_000_000).toISOString(), idleMs: 250, requests: 0 }],
      max: 3,
      idleSeconds: 60,
    });
    expect((await fetchAnswer(`${server.url}/__sim/sandboxes/alpha`, { method: 'DELETE' })).status).toBe(204);
  });

  it('names a sandbox sbx-1, sbx-2 … when no id is given, with the server seed and clock', async () => {
    const first = await post(`${server.url}/__sim/sandboxes`);
    const second = await post(`${server.url}/__sim/sandboxes`, {});
    expect([first.status, first.json.id, first.json.seed, first.json.clock.now]).toEqual([201, 'sbx-1', '42', START]);
    expect([second.status, second.json.id]).toEqual([201, 'sbx-2']);
    for (const id of ['sbx-1', 'sbx-2']) expect((await fetchAnswer(`${server.url}/__sim/sandboxes/${id}`, { method: 'DELETE' })).status).toBe(204);
  });

  describe('two sandboxes', () => {
    beforeAll(async () => {
      expect((await post(`${server.url}/__sim/sandboxes`, { id: 'a' })).status).toBe(201);
      expect((await post(`${server.url}/__sim/sandboxes`, { id: 'b' })).status).toBe(201);
    });
    afterAll(async () => {
      await fetchAnswer(`${server.url}/__sim/sandboxes/a`, { method: 'DELETE' });
      await fetchAnswer(`${server.url}/__sim/sandboxes/b`, { method: 'DELETE' });
    });

    it('each has its own clock: by path prefix and by header, and the server clock stays', async () => {
      const moved = await post(`${server.url}/__sandbox/a/__sim/clock`, { advanceMs: 60_000 });
      expect(moved.json).toEqual({ mode: 'virtual', now: START + 60_000, iso: '2025-06-02T12:01:00.000Z' });
      expect((await fetchAnswer(`${server.url}/__sim/clock`, { headers: { 'x-sim-sandbox': 'a' } })).json.now).toBe(START + 60_000);
      expect((await fetchAnswer(`${server.url}/__sandbox/b/__sim/clock`)).json.now).toBe(START);
      expect((await fetchAnswer(`${server.url}/__sim/clock`)).json.now).toBe(START);
    });

    it('each has its own rate limit: 120 queries admitted in a, the 121st refused, while b and the server admit', async () => {
      const query = (base: string) => post(`${base}/v1/query?website_id=web_acme_store`, JSON.parse(QUERY), { 'x-api-key': key });
      const statuses: number[] = [];
      for (let i = 0; i < 121; i++) statuses.push((await query(`${server.url}/__sandbox/a`)).status);
      expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
      expect(statuses[120]).toBe(429);
      expect((await query(`${server.url}/__sandbox/b`)).status).toBe(200);
      expect((await query(server.url)).status).toBe(200);
      await post(`${server.url}/__sandbox/a/__sim/clock`, { advanceMs: 60_000 });
      expect((await query(`${server.url}/__sandbox/a`)).status).toBe(200);
    });

    it('cannot read each other’s keys, data or journal', async () => {
      const issued = await post(`${server.url}/__sandbox/a/__sim/keys`, { name: 'only in a', organizationId: 'org_acme', scopes: ['read:data'] });
      expect(issued.status).toBe(201);
      const secret = issued.json.secret as string;
      const websites = (base: string) => fetchAnswer(`${base}/v1/query/websites`, { headers: { 'x-api-key': secret } });
      expect((await websites(`${server.url}/__sandbox/a`)).status).toBe(200);
      expect((await websites(`${server.url}/__sandbox/b`)).status).toBe(401);
      expect((await websites(server.url)).status).toBe(401);
      const keyIds = async (base: string) => ((await fetchAnswer(`${base}/__sim/keys`)).json.keys as { id: string }[]).map((k) => k.id);
      const created = issued.json.key.id as string;
      expect(await keyIds(`${server.url}/__sandbox/a`)).toContain(created);
      expect(await keyIds(`${server.url}/__sandbox/b`)).not.toContain(created);

      const tracked = await post(`${server.url}/__sandbox/a/track`, { name: 'sandbox-only', anonymousId: 'anon_1' }, { 'x-api-key': secretOf(defaultSim, 'key_acme_all'), 'x-website-id': 'web_acme_store' });
      expect(tracked.status).toBe(200);
      const journalOf = async (base: string) => (await fetchAnswer(`${base}/__sim/journal?route=/track`)).json.entries as unknown[];
      expect(await journalOf(`${server.url}/__sandbox/a`)).toHaveLength(1);
      expect(await journalOf(`${server.url}/__sandbox/b`)).toHaveLength(0);
      expect(await journalOf(server.url)).toHaveLength(0);
    });

    it('serves its own Prometheus metrics, counting only its requests', async () => {
      await fetchAnswer(`${server.url}/__sandbox/b/v1/query/websites`, { headers: { 'x-api-key': key } });
      const metrics = await fetchAnswer(`${server.url}/__sandbox/b/__sim/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.text).toMatch(/^analytics_sim_requests_total\{outcome="admitted",route="\/v1\/query\/websites",key="key_acme_read"\} 1$/m);
      // One query of its own, while sandbox a answered 122 and the server one.
      expect(metrics.text).toMatch(/^analytics_sim_requests_total\{outcome="admitted",route="\/v1\/query",key="key_acme_read"\} 1$/m);
    });

    it('links its discovery documents under its path prefix', async () => {
      const openapi = await fetchAnswer(`${server.url}/__sandbox/b/openapi.json`);
      expect(openapi.json.servers).toEqual([{ url: `${server.url}/__sandbox/b` }]);
    });

    it('refuses a header and a path prefix that name different sandboxes with 400', async () => {
      const answer = await fetchAnswer(`${server.url}/__sandbox/a/__sim/clock`, { headers: { 'x-sim-sandbox': 'b' } });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toBe('The header x-sim-sandbox names sandbox b but the path names a: name one sandbox (or only one of the two)');
    });

    it('refuses a second sandbox of the same id with 409', async () => {
      const answer = await post(`${server.url}/__sim/sandboxes`, { id: 'a' });
      expect([answer.status, answer.json.code, answer.json.error]).toEqual([409, 'CONFLICT', 'A sandbox with id a is live']);
    });

    it('refuses a sandbox past the cap with 429 naming the cap and how to raise it', async () => {
      expect((await post(`${server.url}/__sim/sandboxes`, { id: 'c' })).status).toBe(201);
      const refused = await post(`${server.url}/__sim/sandboxes`, { id: 'd' });
      expect(refused.status).toBe(429);
      expect(refused.json.error).toBe('Too many sandboxes: 3 are live, the cap of this server (--max-sandboxes 3)');
      expect(refused.json.hint).toContain('DELETE /__sim/sandboxes/<id>');
      expect(refused.json.hint).toContain('--max-sandboxes');
      expect((await fetchAnswer(`${server.url}/__sim/sandboxes/c`, { method: 'DELETE' })).status).toBe(204);
    });
  });

  it('serves a world of the sandbox’s own, and refuses one whose key names no declared organization with 422', async () => {
    const { world } = JSON.parse(readFileSync(new URL('../../examples/my-site.json', import.meta.url), 'utf8')) as { world: { keys: { secret: string }[] } };
    const created = await post(`${server.url}/__sim/sandboxes`, { id: 'mine', world });
    expect(created.status).toBe(201);
    const headers = { 'x-api-key': world.keys[0]!.secret };
    const websites = await fetchAnswer(`${server.url}/__sandbox/mine/v1/query/websites`, { headers });
    expect([websites.status, (websites.json.websites as { id: string }[]).map((w) => w.id)]).toEqual([200, ['3f2a9c1e-7b4d-4e21-9d55-1c0a2b3c4d5e']]);
    expect((await fetchAnswer(`${server.url}/v1/query/websites`, { headers })).status).toBe(401);
    expect((await fetchAnswer(`${server.url}/__sim/sandboxes/mine`, { method: 'DELETE' })).status).toBe(204);

    const broken = await post(`${server.url}/__sim/sandboxes`, { id: 'broken', world: { ...world, keys: [{ ...world.keys[0], organizationId: 'org_nobody' }] } });
    expect([broken.status, broken.json.code]).toEqual([422, 'VALIDATION']);
    expect(broken.json.details).toEqual([{ field: 'body.world.keys[0].organizationId', message: 'no declared organization org_nobody' }]);
  });

  it('answers 404 naming an unknown sandbox, never the server’s own answer', async () => {
    for (const answer of [
      await fetchAnswer(`${server.url}/__sandbox/nobody/v1/query/websites`, { headers: { 'x-api-key': key } }),
      await fetchAnswer(`${server.url}/v1/query/websites`, { headers: { 'x-api-key': key, 'x-sim-sandbox': 'nobody' } }),
      await fetchAnswer(`${server.url}/__sandbox/nobody/__sim/clock`),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.json).toMatchObject({ code: 'NOT_FOUND', error: 'Sandbox not found' });
      expect(answer.json.hint).toContain('No live sandbox has id nobody');
    }
  });

  it('answers 404 to the requests of a deleted sandbox', async () => {
    expect((await post(`${server.url}/__sim/sandboxes`, { id: 'gone' })).status).toBe(201);
    expect((await fetchAnswer(`${server.url}/__sandbox/gone/__sim/health`)).status).toBe(200);
    expect((await fetchAnswer(`${server.url}/__sim/sandboxes/gone`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetchAnswer(`${server.url}/__sandbox/gone/__sim/health`)).status).toBe(404);
    expect((await fetchAnswer(`${server.url}/__sim/sandboxes/gone`, { method: 'DELETE' })).status).toBe(404);
  });

  it.each([
    ['longer than 64 characters', 'x'.repeat(65)],
    ['a dot-dot', '..'],
    ['__proto__', '__proto__'],
    ['a dot', 'a.b'],
    ['a percent escape', 'a%2Fb'],
    ['a space', 'a b'],
  ])('refuses an id that is %s with 400 naming the allowed form', async (_, id) => {
    const created = await post(`${server.url}/__sim/sandboxes`, { id });
    expect([created.status, created.json.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(created.json.error).toContain('A sandbox id is 1 to 64 letters, digits, _ or -');
    if (!id.includes(' ')) {
      const byPath = await sendRaw(server.url, `/__sandbox/${id}/__sim/clock`);
      expect([byPath.status, (byPath.json as { error: string }).error]).toEqual([400, `A sandbox id is 1 to 64 letters, digits, _ or - (got '${id.slice(0, 80)}')`]);
    }
    const byHeader = await sendRaw(server.url, '/__sim/clock', { 'x-sim-sandbox': id });
    expect(byHeader.status).toBe(400);
  });

  it('refuses a path separator in the prefix with 400, and an empty id', async () => {
    expect((await sendRaw(server.url, '/__sandbox/../__sim/clock')).status).toBe(400);
    expect((await sendRaw(server.url, '/__sandbox//__sim/clock')).status).toBe(400);
    expect((await sendRaw(server.url, '/__sandbox')).status).toBe(400);
  });

  it('removes a sandbox idle past the timeout when its next request finds it so', async () => {
    expect((await post(`${server.url}/__sim/sandboxes`, { id: 'idle' })).status).toBe(201);
    wallMs += 59_999;
    expect((await fetchAnswer(`${server.url}/__sandbox/idle/__sim/health`)).status).toBe(200);
    wallMs += 60_000;
    const expired = await fetchAnswer(`${server.url}/__sandbox/idle/__sim/health`);
    expect(expired.status).toBe(404);
    expect(expired.json.hint).toContain('A sandbox idle for 60 s is removed.');
    expect((await fetchAnswer(`${server.url}/__sim/sandboxes`)).json.sandboxes).toEqual([]);
  });

  it('answers 404 on /__sim/sandboxes of a server without a registry', async () => {
    const none = await fetchAnswer(`${plain.url}/__sim/sandboxes`);
    expect([none.status, none.json.error]).toEqual([404, 'Sandbox registry not found']);
  });
});

describe('a server with sandboxes, asked nothing of them', () => {
  let withSandboxes: RunningServer;
  let without: RunningServer;
  beforeAll(async () => {
    withSandboxes = await startServer(simulatorWith({}), { port: 0, sandboxes: createSandboxRegistry({ create: (o) => simulatorWith(o) }) });
    without = await startServer(simulatorWith({}), { port: 0 });
  });
  afterAll(async () => {
    await withSandboxes.close();
    await without.close();
  });

  it('answers byte for byte as a server without sandboxes', async () => {
    const key = secretOf(simulatorWith({}), 'key_acme_read');
    const requests: [string, RequestInit][] = [
      ['/v1/query/websites', { headers: { 'x-api-key': key } }],
      ['/v1/query?website_id=web_acme_store', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: QUERY }],
      ['/v1/query/websites', {}],
      ['/__sim/clock', {}],
      ['/__sim/journal', {}],
    ];
    for (const [path, init] of requests) {
      const a = await fetchAnswer(`${withSandboxes.url}${path}`, init);
      const b = await fetchAnswer(`${without.url}${path}`, init);
      expect([path, a.status, a.text]).toEqual([path, b.status, b.text]);
    }
  });
});

describe('sandboxes of a server that requires a control token', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const registry = createSandboxRegistry({ create: (o) => simulatorWith(o, { controlToken: TOKEN }) });
    server = await startServer(simulatorWith({}, { controlToken: TOKEN }), { port: 0, sandboxes: registry });
  });
  afterAll(() => server.close());

  it('asks the token for creating a sandbox and for the sandbox’s own control plane', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await post(`${server.url}/__sim/sandboxes`, { id: 'guarded' })).status).toBe(401);
    expect((await post(`${server.url}/__sim/sandboxes`, { id: 'guarded' }, auth)).status).toBe(201);
    expect((await fetchAnswer(`${server.url}/__sandbox/guarded/__sim/fixtures`)).status).toBe(401);
    expect((await fetchAnswer(`${server.url}/__sim/fixtures`, { headers: { 'x-sim-sandbox': 'guarded' } })).status).toBe(401);
    expect((await fetchAnswer(`${server.url}/__sandbox/guarded/__sim/fixtures`, { headers: auth })).status).toBe(200);
  });
});
