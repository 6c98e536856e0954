import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExpressApp, simulatorMiddleware } from '../../src/http/express-app.js';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { COMPILE_BODY, REQUEST_ID, SUMMARY_QUERY } from '../helpers/credentials.js';
import { freshSimulator, secretOf, type Answer } from '../helpers/sim.js';
import { coreHeaders, fetchAnswer, listen, withoutTrafficFigures, type Listening } from '../helpers/wire.js';

interface Case {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

const json = (value: unknown): string => JSON.stringify(value);

function send(base: string, c: Case): Promise<Answer> {
  return fetchAnswer(`${base}${c.path}`, {
    method: c.method,
    headers: c.headers ?? {},
    ...(c.body !== undefined ? { body: c.body } : {}),
  });
}

describe('createExpressApp', () => {
  const expressSim = freshSimulator();
  const nodeSim = freshSimulator();
  const read = secretOf(nodeSim, 'key_acme_read');
  const jsonHeaders = { 'content-type': 'application/json', 'x-api-key': read };
  let app: Listening;
  let node: RunningServer;

  beforeAll(async () => {
    app = await listen(createExpressApp(expressSim));
    node = await startServer(nodeSim, { port: 0 });
  });

  afterAll(async () => {
    await Promise.all([app.close(), node.close()]);
  });

  const CASES: readonly Case[] = [
    { method: 'GET', path: '/v1/query/types?include_meta=true' },
    { method: 'HEAD', path: '/v1/query/types' },
    { method: 'GET', path: '/v1/query/websites', headers: { authorization: `Bearer ${read}` } },
    { method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonHeaders, body: json({ ...SUMMARY_QUERY, parameters: ['summary_metrics', 'country'] }) },
    { method: 'POST', path: '/v1/query?organization_id=org_acme', headers: jsonHeaders, body: json([SUMMARY_QUERY, SUMMARY_QUERY]) },
    { method: 'POST', path: '/v1/query/compile', headers: jsonHeaders, body: json(COMPILE_BODY) },
    { method: 'GET', path: '/v1/query/websites' },
    { method: 'POST', path: '/v1/query?website_id=web_globex_app', headers: jsonHeaders, body: json(SUMMARY_QUERY) },
    { method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonHeaders, body: '{"parameters": [' },
    { method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonHeaders, body: json({ parameters: 'summary_metrics' }) },
    { method: 'POST', path: '/v1/query', headers: { ...jsonHeaders, 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=b' },
    { method: 'PUT', path: '/v1/query' },
    { method: 'GET', path: '/nowhere/at/all' },
    { method: 'GET', path: '/__sim/health' },
    { method: 'POST', path: '/__sim/clock', headers: { 'content-type': 'application/json' }, body: json({ advanceMs: 5_000 }) },
  ];

  it('answers ~15 varied requests exactly like the node server: status, body and X-Request-ID sequence', async () => {
    const ids: string[] = [];
    for (const c of CASES) {
      const fromExpress = await send(app.url, c);
      const fromNode = await send(node.url, c);
      const label = `${c.method} ${c.path}`;
      expect(fromExpress.status, label).toBe(fromNode.status);
      expect(withoutTrafficFigures(fromExpress.text), label).toBe(withoutTrafficFigures(fromNode.text));
      expect(fromExpress.headers['x-request-id'], label).toBe(fromNode.headers['x-request-id']);
      expect(coreHeaders(fromExpress.headers), label).toEqual(coreHeaders(fromNode.headers));
      ids.push(fromExpress.headers['x-request-id'] as string);
    }
    for (const id of ids) expect(id).toMatch(REQUEST_ID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers a body over 1 MB with 413 PAYLOAD_TOO_LARGE', async () => {
    const answer = await fetchAnswer(`${app.url}/v1/query?website_id=web_acme_store`, {
      method: 'POST',
      headers: jsonHeaders,
      body: json(SUMMARY_QUERY) + ' '.repeat(1_100_000),
    });
    expect(answer.status).toBe(413);
    expect(answer.json.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('simulatorMiddleware in a user app', () => {
  const mountedSim = freshSimulator();
  const parsedSim = freshSimulator();
  const referenceSim = freshSimulator();
  const read = secretOf(referenceSim, 'key_acme_read');
  const jsonHeaders = { 'content-type': 'application/json', 'x-api-key': read };
  let mounted: Listening;
  let parsed: Listening;
  let reference: RunningServer;

  beforeAll(async () => {
    const plain = express();
    plain.get('/hello', (_req, res) => {
      res.json({ hello: 'world' });
    });
    plain.use('/sim', simulatorMiddleware(mountedSim));
    mounted = await listen(plain);

    const withParser = express();
    withParser.use(express.json());
    withParser.use('/sim', simulatorMiddleware(parsedSim));
    parsed = await listen(withParser);

    reference = await startServer(referenceSim, { port: 0 });
  });

  afterAll(async () => {
    await Promise.all([mounted.close(), parsed.close(), reference.close()]);
  });

  it('answers /sim/v1/query/types under the prefix', async () => {
    const answer = await fetchAnswer(`${mounted.url}/sim/v1/query/types`);
    expect(answer.status).toBe(200);
    expect(answer.json.success).toBe(true);
    expect(answer.json.types).toContain('summary_metrics');
    expect(answer.headers['x-request-id']).toMatch(REQUEST_ID);
  });

  it("leaves the user's own routes alone", async () => {
    const answer = await fetchAnswer(`${mounted.url}/hello`);
    expect(answer.json).toEqual({ hello: 'world' });
  });

  it('keeps the query string and answers a query under the prefix', async () => {
    const answer = await fetchAnswer(`${mounted.url}/sim/v1/query?website_id=web_acme_store`, {
      method: 'POST',
      headers: jsonHeaders,
      body: json(SUMMARY_QUERY),
    });
    expect(answer.status).toBe(200);
    expect(answer.json.data[0].parameter).toBe('summary_metrics');
  });

  it('answers an unknown path under the prefix with the JSON 404 of the simulator', async () => {
    const answer = await fetchAnswer(`${mounted.url}/sim/v9/nothing`);
    expect(answer.status).toBe(404);
    expect(answer.json.code).toBe('NOT_FOUND');
  });

  const PARSED_CASES: readonly Case[] = [
    { method: 'GET', path: '/v1/query/types' },
    { method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonHeaders, body: json(SUMMARY_QUERY) },
    { method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonHeaders, body: json([SUMMARY_QUERY, { ...SUMMARY_QUERY, id: 'second' }]) },
    { method: 'POST', path: '/v1/query/compile', headers: jsonHeaders, body: json(COMPILE_BODY) },
    { method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonHeaders, body: json({ parameters: 'summary_metrics' }) },
    { method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonHeaders, body: json({ parameters: [] }) },
    { method: 'POST', path: '/__sim/clock', headers: { 'content-type': 'application/json' }, body: json({ advanceMs: 1_000 }) },
  ];

  it('answers like the node server when the user app ran express.json() first', async () => {
    for (const c of PARSED_CASES) {
      const fromExpress = await send(parsed.url, { ...c, path: `/sim${c.path}` });
      const fromNode = await send(reference.url, c);
      const label = `${c.method} ${c.path} ${c.body ?? ''}`;
      expect(fromExpress.status, label).toBe(fromNode.status);
      expect(fromExpress.text, label).toBe(fromNode.text);
    }
  });

  it.each([
    ['an empty batch', '[]'],
    ['an empty object', '{}'],
  ])('answers %s the same with or without express.json() in front', async (_label, body) => {
    const sims = [freshSimulator(), freshSimulator()];
    const withParser = express();
    withParser.use(express.json());
    withParser.use(simulatorMiddleware(sims[0] as ReturnType<typeof freshSimulator>));
    const a = await listen(withParser);
    const b = await listen(createExpressApp(sims[1] as ReturnType<typeof freshSimulator>));
    try {
      const c: Case = { method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonHeaders, body };
      const fromParsed = await send(a.url, c);
      const fromRaw = await send(b.url, c);
      expect(fromParsed.status).toBe(fromRaw.status);
      expect(fromParsed.text).toBe(fromRaw.text);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('discovery documents under a mount path', () => {
  const servers = (answer: Answer): unknown => (answer.json as { servers: unknown }).servers;
  let middleware: Listening;
  let subApp: Listening;
  let atRoot: Listening;

  beforeAll(async () => {
    const withMiddleware = express();
    withMiddleware.use('/analytics', simulatorMiddleware(freshSimulator()));
    middleware = await listen(withMiddleware);

    const outer = express();
    outer.use('/analytics', createExpressApp(freshSimulator()));
    subApp = await listen(outer);

    atRoot = await listen(createExpressApp(freshSimulator()));
  });

  afterAll(async () => {
    await Promise.all([middleware.close(), subApp.close(), atRoot.close()]);
  });

  it.each([
    ['simulatorMiddleware', () => middleware],
    ['createExpressApp as a sub-app', () => subApp],
  ])('lists the mount path in openapi.json servers when %s is mounted at /analytics', async (_label, server) => {
    const { url } = server();
    const answer = await fetchAnswer(`${url}/analytics/openapi.json`);
    expect(answer.status).toBe(200);
    expect(servers(answer)).toEqual([{ url: `${url}/analytics` }]);
  });

  it('links the API catalog and auth.md under the mount path, and the links answer', async () => {
    const catalog = await fetchAnswer(`${middleware.url}/analytics/.well-known/api-catalog`);
    expect(catalog.status).toBe(200);
    const [entry] = (catalog.json as { linkset: { anchor: string; 'service-desc': { href: string }[] }[] }).linkset;
    expect(entry?.anchor).toBe(`${middleware.url}/analytics/.well-known/api-catalog`);
    const described = await fetchAnswer(entry?.['service-desc'][0]?.href as string);
    expect(described.status).toBe(200);
    expect(servers(described)).toEqual([{ url: `${middleware.url}/analytics` }]);
    const auth = await fetchAnswer(`${middleware.url}/analytics/auth.md`);
    expect(auth.text).toContain(`${middleware.url}/analytics/v1/query/websites`);
  });

  it('lists the bare origin when mounted at the root, as the node server does', async () => {
    const answer = await fetchAnswer(`${atRoot.url}/openapi.json`);
    expect(servers(answer)).toEqual([{ url: atRoot.url }]);
  });
});
