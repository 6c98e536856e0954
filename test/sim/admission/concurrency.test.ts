import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../../src/http/node-server.js';
import { createSimulator, type Simulator } from '../../../src/index.js';
import { secretOf } from '../../helpers/sim.js';
import { gateSlots } from '../../helpers/slot-gate.js';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** A simulator whose /v1/query/websites answers take `ms` of real time to send (a latency scenario). */
function slowSimulator(ms: number): Simulator {
  return createSimulator({
    seed: 42,
    scenarios: [
      {
        name: 'slow-websites',
        steps: [{ match: { route: '/v1/query/websites' }, effect: { type: 'latency', delay: { distribution: 'fixed', ms } } }],
      },
    ],
  });
}

async function get(url: string, key: string): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(url, { headers: { 'x-api-key': key } });
  return { status: res.status, body: await res.json() };
}

async function inFlight(url: string): Promise<number> {
  const health = (await (await fetch(`${url}/__sim/health`)).json()) as { inFlight: number };
  return health.inFlight;
}

describe('the concurrency cap (SPEC 8.2.2) over real HTTP', () => {
  it('admits 20 of 25 simultaneous requests on one key while the 20 hold their slots, and refuses 5 with 429 and Retry-After: 1', async () => {
    const gate = gateSlots(createSimulator({ seed: 42 }));
    running = await startServer(gate.sim, { port: 0 });
    const key = secretOf(gate.sim, 'key_acme_read');
    gate.hold();
    const answers = Array.from({ length: 25 }, async () => {
      const res = await fetch(`${running!.url}/v1/query/websites`, { headers: { 'x-api-key': key } });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
    });
    // Every request is decided before any slot is given back.
    await gate.decided(25);
    gate.open();
    const settled = await Promise.all(answers);
    const refused = settled.filter((a) => a.status === 429);
    expect(settled.filter((a) => a.status === 200)).toHaveLength(20);
    expect(refused).toHaveLength(5);
    for (const r of refused) {
      expect(r.retryAfter).toBe('1');
      expect(r.body).toMatchObject({ success: false, code: 'RATE_LIMITED', error: 'Too many concurrent API key requests', limit: 20, remaining: 0, retryAfter: 1 });
    }
  });

  it('does not count other keys against the cap', async () => {
    const gate = gateSlots(createSimulator({ seed: 42 }));
    running = await startServer(gate.sim, { port: 0 });
    const acme = secretOf(gate.sim, 'key_acme_read');
    const globex = secretOf(gate.sim, 'key_globex_read');
    gate.hold();
    const held = Array.from({ length: 20 }, () => get(`${running!.url}/v1/query/websites`, acme));
    await gate.decided(20);
    // The key's 20 slots are taken: its next request is refused, another key's is admitted.
    expect((await get(`${running.url}/v1/query/websites`, acme)).status).toBe(429);
    expect((await get(`${running.url}/v1/query/websites`, globex)).status).toBe(200);
    gate.open();
    expect((await Promise.all(held)).every((a) => a.status === 200)).toBe(true);
  });

  it('gives the slots back once the responses are sent', async () => {
    const sim = slowSimulator(200);
    running = await startServer(sim, { port: 0 });
    const key = secretOf(sim, 'key_acme_read');
    const first = await Promise.all(Array.from({ length: 20 }, () => get(`${running!.url}/v1/query/websites`, key)));
    expect(first.every((a) => a.status === 200)).toBe(true);
    expect(await inFlight(running.url)).toBe(0);
    const second = await Promise.all(Array.from({ length: 20 }, () => get(`${running!.url}/v1/query/websites`, key)));
    expect(second.every((a) => a.status === 200)).toBe(true);
  });

  it('gives the slots back when clients abort before the response', async () => {
    // The answers are held for a minute, far past this test's timeout: only the aborts can free the slots.
    const gate = gateSlots(slowSimulator(60_000));
    running = await startServer(gate.sim, { port: 0 });
    const key = secretOf(gate.sim, 'key_acme_read');
    const { port } = running;
    const requests = Array.from({ length: 20 }, () => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/query/websites', headers: { 'x-api-key': key } });
      req.on('error', () => undefined);
      req.end();
      return req;
    });
    await gate.decided(20);
    expect(await inFlight(running.url)).toBe(20);
    for (const req of requests) req.destroy();
    // The server notices each abort when the socket closes, and gives the slot back then.
    await vi.waitFor(async () => expect(await inFlight(running!.url)).toBe(0), { timeout: 5000, interval: 10 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => get(`${running!.url}/v1/query/types`, key)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
  });
});
