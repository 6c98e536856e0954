import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { createSimulator, type ScenarioInput } from '../../src/index.js';
import { secretOf } from '../helpers/sim.js';
import { fetchAnswer } from '../helpers/wire.js';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const DROP_WEBSITES: ScenarioInput = {
  name: 'drop-websites',
  description: 'Every GET /v1/query/websites has its connection reset.',
  steps: [{ name: 'reset', match: { route: '/v1/query/websites', method: 'GET' }, effect: { type: 'reset' } }],
};

/** The error a rejected fetch carries (fetch wraps the socket error as its cause). */
async function rejection(promise: Promise<unknown>): Promise<Error & { cause?: { code?: string; message?: string } }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { cause?: { code?: string; message?: string } };
  }
  throw new Error('the request was answered instead of dropped');
}

const SOCKET_ERROR_CODES = ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'];

describe('a reset step over real HTTP', () => {
  it('drops the connection of a matched request without an answer while other routes answer, and keeps serving', async () => {
    const sim = createSimulator({ seed: 42, scenarios: [DROP_WEBSITES] });
    running = await startServer(sim, { port: 0 });
    const headers = { 'x-api-key': secretOf(sim, 'key_acme_read') };

    for (let round = 0; round < 3; round++) {
      const error = await rejection(fetch(`${running.url}/v1/query/websites`, { headers }));
      expect(error).toBeInstanceOf(TypeError);
      expect(SOCKET_ERROR_CODES).toContain(error.cause?.code);

      const types = await fetchAnswer(`${running.url}/v1/query/types`, { headers });
      expect(types.status).toBe(200);
      const query = await fetchAnswer(`${running.url}/v1/query?website_id=web_acme_www`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ parameters: ['summary_metrics'], preset: 'today' }),
      });
      expect(query.status).toBe(200);
      expect(query.json.success).toBe(true);
    }

    // The dropped requests gave their in-flight slots back.
    const health = await fetchAnswer(`${running.url}/__sim/health`);
    expect(health.status).toBe(200);
    expect(health.json.inFlight).toBe(0);
    // The journal names each dropped request.
    const journal = await fetchAnswer(`${running.url}/__sim/journal?outcome=scenario`);
    expect(journal.json.entries).toHaveLength(3);
    expect(journal.json.entries.every((e: { status: number; path: string }) => e.status === 0 && e.path === '/v1/query/websites')).toBe(true);
  });

  it('answers the route again once the scenario started over the control plane is stopped', async () => {
    const sim = createSimulator({ seed: 42 });
    running = await startServer(sim, { port: 0 });
    const headers = { 'x-api-key': secretOf(sim, 'key_acme_read') };
    const url = `${running.url}/v1/query/websites`;

    expect((await fetchAnswer(url, { headers })).status).toBe(200);
    const started = await fetchAnswer(`${running.url}/__sim/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scenario: DROP_WEBSITES }),
    });
    expect(started.status).toBe(201);

    const error = await rejection(fetch(url, { headers }));
    expect(SOCKET_ERROR_CODES).toContain(error.cause?.code);
    // Without a key the request is matched too: the step names no key.
    await rejection(fetch(url));

    const stopped = await fetchAnswer(`${running.url}/__sim/scenarios/drop-websites`, { method: 'DELETE' });
    expect(stopped.json).toEqual({ stopped: ['drop-websites'] });
    const after = await fetchAnswer(url, { headers });
    expect(after.status).toBe(200);
    expect(after.json.success).toBe(true);
  });
});
