import { afterEach, describe, expect, it } from 'vitest';
import express from 'express';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { createExpressApp } from '../../src/http/express-app.js';
import type { Simulator } from '../../src/sim/simulator.js';
import { freshSimulator } from '../helpers/sim.js';
import { fetchAnswer, listen, type Listening } from '../helpers/wire.js';

const open: (RunningServer | Listening)[] = [];

afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

/** The limit identities of the journal's entries, oldest first. */
async function identities(url: string): Promise<string[]> {
  const journal = await fetchAnswer(`${url}/__sim/journal`);
  return (journal.json.entries as { identity: string }[]).map((entry) => entry.identity);
}

/** Three anonymous requests, each claiming another client address. */
async function sendForwarded(url: string): Promise<void> {
  for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
    await fetchAnswer(`${url}/v1/query/websites`, { headers: { 'x-forwarded-for': ip } });
  }
}

async function serve(sim: Simulator, trustProxy?: boolean): Promise<RunningServer> {
  const server = await startServer(sim, { port: 0, ...(trustProxy !== undefined ? { trustProxy } : {}) });
  open.push(server);
  return server;
}

describe('the client address of anonymous limits over HTTP', () => {
  it('is the socket peer by default, whatever x-forwarded-for says: a client cannot mint identities', async () => {
    const server = await serve(freshSimulator());
    await sendForwarded(server.url);
    expect(await identities(server.url)).toEqual(['anon:127.0.0.1', 'anon:127.0.0.1', 'anon:127.0.0.1']);
  });

  it('is the forwarded address with trustProxy, and the peer when no forwarded header is sent', async () => {
    const server = await serve(freshSimulator(), true);
    await sendForwarded(server.url);
    await fetchAnswer(`${server.url}/v1/query/websites`, { headers: { 'cf-connecting-ip': '198.51.100.7' } });
    await fetchAnswer(`${server.url}/v1/query/websites`);
    expect(await identities(server.url)).toEqual(['anon:203.0.113.1', 'anon:203.0.113.2', 'anon:203.0.113.3', 'anon:198.51.100.7', 'anon:127.0.0.1']);
  });

  it("follows express's own trust proxy setting in the middleware", async () => {
    const sim = freshSimulator();
    const plain = await listen(createExpressApp(sim));
    open.push(plain);
    await sendForwarded(plain.url);
    const trusting = express();
    trusting.set('trust proxy', 'loopback');
    trusting.use(createExpressApp(sim));
    const behindProxy = await listen(trusting);
    open.push(behindProxy);
    await fetchAnswer(`${behindProxy.url}/v1/query/websites`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(await identities(plain.url)).toEqual(['anon:127.0.0.1', 'anon:127.0.0.1', 'anon:127.0.0.1', 'anon:203.0.113.9']);
  });
});
