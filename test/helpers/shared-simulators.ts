import { afterAll, beforeAll } from 'vitest';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/index.js';
import { createSeededWorld } from '../../src/fixtures/world.js';
import { createRedisStore, type RedisStore } from '../../src/store/redis-store.js';
import { startRedis, type RedisServer } from './redis-server.js';

/**
 * For a describe file: starts Debian's redis-server on a free port before the suite and stops it
 * after, and returns a maker of simulators that share one store prefix (as the processes of
 * `serve --workers N` do), each ready, all closed after the suite.
 */
export function sharedSimulatorsDuringSuite(name: string): (count: number, options?: Partial<SimulatorOptions>) => Promise<[Simulator, Simulator, ...Simulator[]]> {
  let redis: RedisServer;
  const stores: RedisStore[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.allSettled(stores.map((s) => s.close()));
    await redis?.stop();
  });
  return async (count, options = {}) => {
    if (count < 2) throw new Error('a shared simulator is at least two processes');
    const prefix = `${name}-${process.pid}`;
    const sims = Array.from({ length: count }, () => {
      const store = createRedisStore({ url: redis.url, prefix, commandTimeoutMs: 2000 });
      stores.push(store);
      return createSimulator({ seed: 42, createWorld: createSeededWorld, ...options, store });
    });
    for (const sim of sims) await sim.ready();
    return sims as [Simulator, Simulator, ...Simulator[]];
  };
}
