import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/http/node-server.js';
import { createSimulator } from '../../../src/index.js';
import { startCli, type CliProcess } from '../../helpers/cli.js';
import { freshSimulator } from '../../helpers/sim.js';
import { fetchAnswer, rawRequest } from '../../helpers/wire.js';

describe('CORS over the node:http server', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer(freshSimulator(), { port: 0 });
  });

  afterAll(async () => {
    await server.close();
  });

  it('answers a preflight with 204, no body and no content type', async () => {
    const answer = await rawRequest(server.url, {
      method: 'OPTIONS',
      path: '/v1/query?website_id=web_acme_store',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(answer.headers['content-type']).toBeUndefined();
    expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(answer.headers['access-control-allow-credentials']).toBe('true');
    expect(answer.headers['access-control-max-age']).toBe('600');
  });

  it('treats the origin the simulator is addressed by as its own, whatever the list says', async () => {
    const restricted = await startServer(createSimulator({ allowedOrigins: ['https://app.example'] }), { port: 0 });
    try {
      const own = await fetchAnswer(`${restricted.url}/v1/query/types`, { headers: { origin: restricted.url } });
      expect(own.headers['access-control-allow-origin']).toBe(restricted.url);
      const other = await fetchAnswer(`${restricted.url}/v1/query/types`, { headers: { origin: server.url } });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await restricted.close();
    }
  });

  it('sets the session cookie over the wire', async () => {
    const answer = await rawRequest(server.url, {
      method: 'POST',
      path: '/__sim/sessions',
      headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      chunks: [JSON.stringify({ userId: 'user_alice' })],
    });
    expect(answer.status).toBe(201);
    expect(answer.headers['set-cookie']).toBe(`databuddy.session_token=${answer.json.token}; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax; Secure`);
  });
});

describe('analytics-sim serve --allowed-origin', () => {
  let cli: CliProcess;
  let url: string;

  beforeAll(async () => {
    cli = startCli(['serve', '--port', '0', '--clock', 'virtual', '--allowed-origin', 'http://localhost:5173', '--allowed-origin', 'https://app.example']);
    [, url = ''] = await cli.waitForStdout(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await cli.waitForStdout(/allowed origins \(CORS\): http:\/\/localhost:5173, https:\/\/app\.example/);
  });

  afterAll(async () => {
    cli.kill();
    await cli.exited;
  });

  it('allows the listed origins and no other', async () => {
    for (const origin of ['http://localhost:5173', 'https://app.example']) {
      const answer = await fetchAnswer(`${url}/v1/query/types`, { headers: { origin } });
      expect(answer.headers['access-control-allow-origin']).toBe(origin);
    }
    const other = await fetchAnswer(`${url}/v1/query/types`, { headers: { origin: 'http://localhost:3000' } });
    expect(other.status).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('exits with status 2 and a message for an entry that is not an origin', async () => {
    const bad = startCli(['serve', '--port', '0', '--allowed-origin', 'localhost:3000']);
    const exit = await bad.exited;
    expect(exit.code).toBe(2);
    expect(bad.stderr()).toMatch(/--allowed-origin: 'localhost:3000' is not an origin/);
  });
});
