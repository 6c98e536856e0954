import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedisClient, LOADING_RETRY_MS } from '../../src/store/redis-client.js';
import { parseStoreTarget, type StoreTarget } from '../../src/store/store-target.js';

/**
 * The client of a Redis that was just restarted: while it loads its data it answers the ready
 * check (INFO) with `loading:1` and an estimate of at least a second. The client must ask again
 * within {@link LOADING_RETRY_MS}, not wait the estimate out: a store restarted with AOF is back
 * as soon as its data is loaded. A fake Redis on a free loopback port plays the loading server.
 */
const servers: Server[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers.length = 0;
});

const bulk = (text: string): string => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;

/** A server that answers INFO with `loading:1` (estimate 1 s) `loadingReplies` times, then `loading:0`; `+OK` to anything else. */
async function startLoadingRedis(loadingReplies: number): Promise<{ port: number; infoTimes: number[] }> {
  const infoTimes: number[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (chunk) => {
      // One command per chunk is enough for a ready check; answer each command found in it.
      for (const command of chunk.toString('latin1').split(/(?=\*\d+\r\n)/)) {
        if (command === '') continue;
        if (/\binfo\b/i.test(command)) {
          infoTimes.push(Date.now());
          const loading = infoTimes.length <= loadingReplies;
          socket.write(bulk(loading ? '# Persistence\r\nloading:1\r\nloading_eta_seconds:1\r\n' : '# Persistence\r\nloading:0\r\n'));
        } else {
          socket.write('+OK\r\n');
        }
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { port: typeof address === 'object' && address !== null ? address.port : 0, infoTimes };
}

describe('the Redis client of a store whose Redis is still loading its data', () => {
  it(`asks again within ${LOADING_RETRY_MS} ms, not after the server's estimate of a second, and is ready once loading ends`, async () => {
    const { port, infoTimes } = await startLoadingRedis(2);
    const client = createRedisClient(parseStoreTarget(`redis://127.0.0.1:${port}`) as StoreTarget, { commandTimeoutMs: 5000 });
    try {
      // Ready means the third INFO said loading:0: the two loading answers were asked again.
      await new Promise<void>((resolve, reject) => {
        const guard = setTimeout(() => reject(new Error('not ready within 5 s')), 5000);
        client.once('ready', () => {
          clearTimeout(guard);
          resolve();
        });
      });
      expect(infoTimes).toHaveLength(3);
      // Without the cap each retry waits the estimate: 1000 ms. Half of that leaves room for a slow machine.
      for (let i = 1; i < infoTimes.length; i++) expect(infoTimes[i]! - infoTimes[i - 1]!).toBeLessThan(500);
    } finally {
      client.disconnect();
    }
  });
});
