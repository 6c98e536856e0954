import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { CONTROL_ROUTES } from '../../../src/sim/control/control-table.js';
import { PUBLIC_ROUTES } from '../../../src/sim/routing/public-routes.js';
import { VERSION } from '../../../src/version.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

const HOST = { host: '127.0.0.1:8787' };

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const answer = await call(freshSimulator(), 'GET', '/openapi.json', { headers: HOST });
    expect(answer.status).toBe(200);
    expect(answer.json.openapi).toBe('3.1.0');
    const result = await new Validator().validate(answer.json);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every route the simulator serves, with its method', async () => {
    const doc = (await call(freshSimulator(), 'GET', '/openapi.json', { headers: HOST })).json;
    const missing = [...PUBLIC_ROUTES, ...CONTROL_ROUTES].filter((route) => route.method !== 'HEAD')
      .map((route) => [route.method.toLowerCase(), route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')] as const)
      .filter(([method, path]) => !doc.paths[path]?.[method]);
    expect(missing).toEqual([]);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/query', '/v1/query/websites', '/__sim/clock', '/__sim/journal', '/health']));
  });

  it('uses the request schemas: the query body, the filter operators and the security schemes', async () => {
    const doc = (await call(freshSimulator(), 'GET', '/openapi.json', { headers: HOST })).json;
    const query = doc.paths['/v1/query'].post;
    expect(query.security).toEqual([{ ApiKeyHeader: [] }, { BearerAuth: [] }, { SessionCookie: [] }]);
    expect(JSON.stringify(query.requestBody)).toContain('"not_contains"');
    expect(query.parameters.map((p: { name: string }) => p.name)).toEqual(['website_id', 'link_id', 'schedule_id', 'organization_id', 'timezone']);
    expect(Object.keys(query.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '422', '429']));
    expect(doc.paths['/v1/query/types'].get.security).toEqual([]);
    expect(doc.components.securitySchemes.ApiKeyHeader).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(doc.servers).toEqual([{ url: 'http://127.0.0.1:8787' }]);
    expect(doc.info.version).toBe(VERSION);
  });
});

describe('the bounds /openapi.json states are the bounds the routes enforce', () => {
  const sim = freshSimulator();
  const key = secretOf(sim, 'key_acme_all');

  it('gives a list its page and limit ranges as patterns that match exactly the values the route accepts', async () => {
    const doc = (await call(sim, 'GET', '/openapi.json', { headers: HOST })).json;
    const params = doc.paths['/v1/flags'].get.parameters as { name: string; schema: { pattern: string } }[];
    const patternOf = (name: string): RegExp => new RegExp(params.find((p) => p.name === name)?.schema.pattern ?? '^$');
    const values = ['0', '1', '9', '10', '99', '100', '101', '999', '1000000000', '1000000001', '01', ''];
    for (const name of ['limit', 'page'] as const) {
      for (const value of values) {
        const answer = await call(sim, 'GET', '/v1/flags', { key, query: { [name]: value } });
        expect({ name, value, accepted: answer.status === 200 }).toEqual({ name, value, accepted: patternOf(name).test(value) });
      }
    }
  });

  it("documents the control plane's 401 without its token and 403 for a foreign Origin, in the error shape the guard answers", async () => {
    const doc = (await call(sim, 'GET', '/openapi.json', { headers: HOST })).json;
    const fixtures = doc.paths['/__sim/fixtures'].get.responses;
    expect(Object.keys(fixtures)).toEqual(expect.arrayContaining(['200', '401', '403']));
    const guarded = freshSimulator({ controlToken: 'token-for-the-test' });
    const refused = await call(guarded, 'GET', '/__sim/fixtures', { headers: HOST });
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ success: false, code: 'AUTH_REQUIRED' });
  });

  it("documents 409 CONFLICT (a request a reset erased from a shared store's log) on every route that changes state, and on none that only reads", async () => {
    const doc = (await call(sim, 'GET', '/openapi.json', { headers: HOST })).json;
    const responsesOf = (path: string, method: string): Record<string, { description: string }> => doc.paths[path][method].responses;
    expect(responsesOf('/track', 'post')['409']?.description).toContain('erased from the shared log by a reset');
    // A route that declared a 409 of its own keeps it, and says the shared store's too.
    expect(responsesOf('/__sim/keys', 'post')['409']?.description).toMatch(/exists.*erased from the shared log by a reset/s);
    expect(responsesOf('/v1/query', 'post')).not.toHaveProperty('409');
    expect(responsesOf('/__sim/fixtures', 'get')).not.toHaveProperty('409');
    // Every operation of the document: a write documents the shared store's 409 unless it only
    // reads (queries) or runs once where it arrives (reset, clearing the journal, sandboxes);
    // a read does not, except the pixel, a GET that records a page view.
    const onlyReads = new Set(['post /v1/query', 'post /v1/query/compile', 'post /__sim/reset', 'delete /__sim/journal', 'post /__sim/sandboxes', 'delete /__sim/sandboxes/{id}']);
    const readsThatWrite = new Set(['get /px.jpg']);
    const wrong: string[] = [];
    let writes = 0;
    for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, { responses?: Record<string, { description: string }> }>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (operation.responses === undefined) continue;
        const name = `${method} ${path}`;
        const writesState = (method !== 'get' && method !== 'head' && !onlyReads.has(name)) || readsThatWrite.has(name);
        if (writesState) writes++;
        const erased = operation.responses['409']?.description.includes('erased from the shared log by a reset') === true;
        if (erased !== writesState) wrong.push(`${name}: ${erased ? 'documents' : 'lacks'} the shared store's 409`);
      }
    }
    expect(wrong).toEqual([]);
    expect(writes).toBeGreaterThan(40);
  });

  it('says a PATCH body needs at least one field and a status page lists each monitor once', async () => {
    const doc = (await call(sim, 'GET', '/openapi.json', { headers: HOST })).json;
    expect(doc.paths['/v1/flags/{id}'].patch.requestBody.content['application/json'].schema.minProperties).toBe(1);
    expect(JSON.stringify(doc.paths['/v1/status-pages'].post.requestBody)).toContain('"uniqueItems":true');
  });
});

describe('GET /.well-known/api-catalog', () => {
  it('answers an RFC 9727 linkset pointing at the API, its description, auth.md and health', async () => {
    const answer = await call(freshSimulator(), 'GET', '/.well-known/api-catalog', { headers: HOST });
    expect(answer.status).toBe(200);
    expect(answer.headers['Content-Type']).toBe('application/linkset+json;profile="https://www.rfc-editor.org/info/rfc9727"; charset=utf-8');
    expect(answer.headers['Cache-Control']).toBe('public, max-age=3600, must-revalidate');
    expect(answer.text).toContain('\n  "linkset"');
    const [set] = answer.json.linkset;
    expect(set.anchor).toBe('http://127.0.0.1:8787/.well-known/api-catalog');
    expect(set['service-desc'][0]).toMatchObject({ href: 'http://127.0.0.1:8787/openapi.json', type: 'application/vnd.oai.openapi+json;version=3.1' });
    expect(set['service-doc'][0]).toMatchObject({ href: 'http://127.0.0.1:8787/auth.md', type: 'text/markdown' });
    expect(set.status[0].href).toBe('http://127.0.0.1:8787/health');
  });

  it('answers HEAD with the Link header and no body', async () => {
    const answer = await call(freshSimulator(), 'HEAD', '/.well-known/api-catalog', { headers: HOST });
    expect(answer.status).toBe(200);
    expect(answer.headers.Link).toBe('</.well-known/api-catalog>; rel="api-catalog"');
  });

  it('does not echo a hostile Host header into links', async () => {
    const answer = await call(freshSimulator(), 'GET', '/.well-known/api-catalog', { headers: { host: 'evil.example/"><script>' } });
    expect(answer.json.linkset[0].anchor).toBe('http://localhost/.well-known/api-catalog');
  });
});

describe('GET /auth.md and GET /health', () => {
  it('explains how to create, send and revoke a key, with every scope', async () => {
    const answer = await call(freshSimulator(), 'GET', '/auth.md', { headers: HOST });
    expect(answer.status).toBe(200);
    expect(answer.headers['Content-Type']).toBe('text/markdown; charset=utf-8');
    for (const text of ['# auth.md', '## Use the credential', 'x-api-key: $KEY', 'Authorization: Bearer $KEY', '## Errors', '## Revocation', '## API key scopes', 'manage:config', 'http://127.0.0.1:8787/__sim/keys']) {
      expect(answer.text).toContain(text);
    }
  });

  it('reports health with the version and the simulator clock', async () => {
    const sim = freshSimulator();
    const answer = await call(sim, 'GET', '/health');
    expect(answer.json).toEqual({ success: true, status: 'ok', version: VERSION, timestamp: new Date(sim.clock.now()).toISOString(), clickhouse: true, database: true, redis: true });
  });

  it('keeps the version constant equal to package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});

describe('the query types in /openapi.json', () => {
  it('names every query type and gives each one the JSON Schema of its live row', async () => {
    const doc = (await call(freshSimulator(), 'GET', '/openapi.json', { headers: HOST })).json;
    const names = doc.components.schemas.QueryType.enum as string[];
    expect(names).toHaveLength(155);
    const rows = doc.components['x-query-rows'] as Record<string, { required: string[]; additionalProperties: boolean }>;
    expect(Object.keys(rows)).toEqual(names);
    expect(rows.summary_metrics?.required).toEqual(['pageviews', 'unique_visitors', 'sessions', 'bounce_rate', 'median_session_duration', 'total_events']);
    expect(rows.country?.additionalProperties).toBe(false);
  });
});
