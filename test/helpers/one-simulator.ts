import { expect } from 'vitest';
import { createSimulator, type Simulator } from '../../src/index.js';
import { createSeededWorld } from '../../src/fixtures/world.js';
import { createRedisStore, type RedisStore, type RedisStoreOptions } from '../../src/store/redis-store.js';
import { call, secretOf } from './sim.js';

/** Stores opened by {@link twoSimulatorsOn}, for the file to close after its suite. */
export const openedStores: RedisStore[] = [];

let prefixes = 0;

/**
 * Two simulators (two processes of one simulator) on the store `options` name, each ready: on a
 * fresh prefix made from `name`, or on `name` itself with `exactPrefix`.
 */
export async function twoSimulatorsOn(options: Omit<RedisStoreOptions, 'prefix'>, name: string, { exactPrefix = false } = {}): Promise<[Simulator, Simulator]> {
  const prefix = exactPrefix ? name : `${name}-${process.pid}-${++prefixes}`;
  const sims = [0, 1].map(() => {
    const store = createRedisStore({ commandTimeoutMs: 2000, ...options, prefix });
    openedStores.push(store);
    return createSimulator({ seed: 42, createWorld: createSeededWorld, store });
  }) as [Simulator, Simulator];
  for (const sim of sims) await sim.ready();
  return sims;
}

/**
 * What every form of store must hold, through the public surface: the quota of 10 admits 10
 * requests over both simulators and refuses the 11th and 12th, an event tracked on A is in B's
 * query, and the merged journal's oracle finds no over- or under-admission (asked on both).
 */
export async function expectOneSimulator([a, b]: [Simulator, Simulator]): Promise<void> {
  const quota = secretOf(a, 'key_acme_quota');
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) statuses.push((await call(i % 2 ? b : a, 'GET', '/v1/query/websites', { key: quota })).status);
  expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);

  const read = secretOf(b, 'key_acme_read');
  const events = async (sim: Simulator): Promise<number> => {
    const answer = await call(sim, 'POST', '/v1/query', {
      key: read,
      query: { website_id: 'web_acme_www' },
      body: { parameters: ['custom_events'], startDate: '2025-06-02', endDate: '2025-06-02', limit: 1000 },
    });
    expect(answer.status).toBe(200);
    return (answer.json.data[0].data as { name: string; total_events: number }[]).find((row) => row.name === 'across_the_store')?.total_events ?? 0;
  };
  expect(await events(b)).toBe(0);
  const batch = Array.from({ length: 3 }, (_, i) => ({ name: 'across_the_store', timestamp: Date.UTC(2025, 5, 2, 10, i) }));
  const tracked = await call(a, 'POST', '/track', { key: secretOf(a, 'key_acme_track'), query: { website_id: 'web_acme_www' }, body: batch });
  expect(tracked.json).toEqual({ status: 'success', type: 'custom_event', count: 3 });
  expect(await events(b)).toBe(3);

  for (const sim of [a, b]) {
    const oracle = await call(sim, 'GET', '/__sim/journal/oracle');
    expect(oracle.json).toMatchObject({ overAdmissions: 0, underAdmissions: 0, accuracy: 100 });
    expect(oracle.json.checked).toBeGreaterThanOrEqual(12);
  }
}
