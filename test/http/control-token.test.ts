import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { freshSimulator, secretOf } from '../helpers/sim.js';
import { fetchAnswer } from '../helpers/wire.js';

const TOKEN = 'test-control-token-0123456789';

describe('the control plane of a server bound to every interface, with a control token', () => {
  const sim = freshSimulator({ controlToken: TOKEN });
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer(sim, { port: 0, host: '0.0.0.0' });
  });

  afterAll(async () => {
    await server.close();
  });

  it('reports the address actually bound', () => {
    expect(server.address).toBe('0.0.0.0');
  });

  it('answers /__sim/fixtures 401 in the JSON error shape without the token', async () => {
    const answer = await fetchAnswer(`${server.url}/__sim/fixtures`);
    expect(answer.status).toBe(401);
    expect(answer.json).toMatchObject({ success: false, code: 'AUTH_REQUIRED', error: 'Control token required' });
    expect(answer.text).not.toContain(TOKEN);
    expect(answer.text).not.toContain('dbdy_');
  });

  it.each([
    ['another token', `Bearer ${TOKEN.slice(0, -1)}x`],
    ['a longer token', `Bearer ${TOKEN}x`],
    ['a prefix of the token', `Bearer ${TOKEN.slice(0, 8)}`],
    ['another scheme', `Basic ${TOKEN}`],
    ['an API key', `Bearer ${'dbdy_'.padEnd(53, 'a')}`],
  ])('answers 401 with %s', async (_, authorization) => {
    const answer = await fetchAnswer(`${server.url}/__sim/fixtures`, { headers: { authorization } });
    expect(answer.status).toBe(401);
  });

  it('answers /__sim/fixtures 200 with Authorization: Bearer <token>', async () => {
    const answer = await fetchAnswer(`${server.url}/__sim/fixtures`, { headers: { authorization: `bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
    expect(answer.json.apiKeys.length).toBeGreaterThan(0);
  });

  it('guards every /__sim route: reset, keys, clock', async () => {
    for (const [method, path] of [
      ['POST', '/__sim/reset'],
      ['GET', '/__sim/keys'],
      ['GET', '/__sim/clock'],
    ] as const) {
      const answer = await fetchAnswer(`${server.url}${path}`, { method });
      expect([method, path, answer.status]).toEqual([method, path, 401]);
    }
  });

  it('leaves the public API as it is', async () => {
    const answer = await fetchAnswer(`${server.url}/v1/query/websites`, { headers: { 'x-api-key': secretOf(sim, 'key_acme_read') } });
    expect(answer.status).toBe(200);
  });
});

describe('a simulator without a control token (loopback and in-process use)', () => {
  it('answers /__sim/fixtures without any credential', async () => {
    const server = await startServer(freshSimulator(), { port: 0 });
    try {
      expect((await fetchAnswer(`${server.url}/__sim/fixtures`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
