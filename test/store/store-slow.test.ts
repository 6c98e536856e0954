import { afterAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/index.js';
import { createSeededWorld } from '../../src/fixtures/world.js';
import { createRedisStore } from '../../src/store/redis-store.js';
import { startRedis } from '../helpers/redis-server.js';
import { admittedEntry } from '../helpers/journal-entries.js';
import { call, secretOf } from '../helpers/sim.js';

/**
 * A slow Redis (every answer late, none lost) must not make a request wait one slow answer per
 * step: after a command answered later than the store's bound, it refuses at once for a while,
 * so a request waits for one slow call at most (a step after it is refused at once, 503 with
 * Retry-After) and the requests after it are answered 503 at once. The store times its calls
 * on a clock the test owns: it stands still (every call takes 0 ms, however busy the machine),
 * and while the test runs something `slowly` every reading of it is a second later than the
 * last, so each call made then takes over the bound of 400 ms; the guard lasts an hour of that
 * clock, which the test moves past.
 */
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

/**
 * A Redis and a store on `prefix` whose guard reads a clock the test owns: `slowly` runs work
 * whose calls each take a second of it (over the 400 ms bound: the guard opens for an hour of
 * it), `skip` moves it past the guard.
 */
async function storeOnTestClock(prefix: string) {
  const redis = await startRedis();
  closers.push(() => redis.stop());
  let clock = 1_000_000;
  let slowing = false;
  const store = createRedisStore({ url: redis.url, prefix, commandTimeoutMs: 10_000, slowCallMs: 400, slowGuardMs: 3_600_000, now: () => (slowing ? (clock += 1000) : clock) });
  closers.push(() => store.close());
  const slowly = async <T>(work: () => Promise<T>): Promise<T> => {
    slowing = true;
    try {
      return await work();
    } finally {
      slowing = false;
    }
  };
  return { redis, store, slowly, skip: () => (clock += 3_600_001) };
}

describe('a Redis store that answers slowly', () => {
  it('answers the request that met a slow answer with what Redis said, then refuses at once with 503 and Retry-After while its guard is open, and serves again after it', async () => {
    const { store, slowly, skip } = await storeOnTestClock(`slow-${process.pid}`);
    const sim = createSimulator({ seed: 42, createWorld: createSeededWorld, store });
    await sim.ready();
    const key = secretOf(sim, 'key_acme_read');
    const query = () => call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_store' }, body: { parameters: ['summary_metrics'], preset: 'today' } });
    expect((await query()).status).toBe(200);

    // One slow round trip takes the request's slot and endpoint window: its answer stands.
    const slow = await slowly(query);
    expect(slow.status).toBe(200);

    // The guard is open: Redis is not asked, even though it answers fast again.
    const refused = await query();
    expect(refused.status).toBe(503);
    expect(refused.json.code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(refused.headers['Retry-After'])).toBeGreaterThan(0);
    skip();
    // Read before any other request reaches Redis: the read sends the kept entry first.
    const early = (await call(sim, 'GET', '/__sim/journal')).json;
    expect(early.entries.map((e: { requestId: string }) => e.requestId)).toContain(slow.json.requestId);
    expect(early.info).toMatchObject({ complete: true, dropped: 0 });
    expect((await query()).status).toBe(200);
    // The slow request's journal entry, refused by the open guard, was appended once Redis answered again.
    const journal = (await call(sim, 'GET', '/__sim/journal')).json;
    expect(journal.entries.map((e: { requestId: string }) => e.requestId)).toContain(slow.json.requestId);
    expect(journal.info).toMatchObject({ complete: true, dropped: 0 });
    expect((await call(sim, 'GET', '/__sim/journal/oracle')).json).toMatchObject({ overAdmissions: 0, underAdmissions: 0, accuracy: 100 });
    // Its release, refused with its entry in the same call, was given back too: no slot is left held.
    expect(await store.leases.total()).toBe(0);
  }, 30_000);

  it('appends late the journal entries the open guard refused, drops those a reset or clear by another process erased, and counts as lost those past its bound', async () => {
    const prefix = `slow-late-${process.pid}`;
    const { redis, store: slow, slowly, skip } = await storeOnTestClock(prefix);
    const other = createRedisStore({ url: redis.url, prefix });
    closers.push(() => other.close());
    const T0 = 1_750_000_000_000;
    const openGuard = async (): Promise<void> => {
      await slowly(() => slow.journal.append(admittedEntry(1, T0 - 1), 0));
    };
    const closeGuard = async (): Promise<void> => {
      skip();
      // The late appends go with the calls after the first one Redis answers.
      await slow.journal.append(admittedEntry(2, T0 + 1_000_000), 0);
      await slow.journal.append(admittedEntry(3, T0 + 1_000_001), 0);
    };

    await openGuard();
    // Refused at once, never sent: kept. One begun before the other process's reset, one after
    // it at an earlier instant (a virtual clock starts over at a reset: the log position tells).
    await expect(slow.journal.append(admittedEntry(10, T0 + 10), 0)).rejects.toThrow();
    const reset = await other.reset('{"k":"reset"}', T0 + 20);
    await expect(slow.journal.append(admittedEntry(11, T0 - 500), reset)).rejects.toThrow();
    // More than the 4,096 it keeps: the rest are counted as lost.
    for (let i = 0; i < 4_100; i++) await expect(slow.journal.append(admittedEntry(100 + i, T0 + 40), reset)).rejects.toThrow();
    await closeGuard();
    let listed = await other.journal.list();
    expect(listed.filter((e) => e.at === T0 - 500)).toHaveLength(1);
    expect(listed.filter((e) => e.at === T0 + 10 || e.at === T0 - 1)).toEqual([]);
    // It keeps 4,096 entries: the two above and 4,094 of these; the other 6 are lost.
    expect(listed.filter((e) => e.at === T0 + 40)).toHaveLength(4_094);
    // Every process's journal says it lost entries, not only the one that lost them.
    expect(await other.journal.info()).toMatchObject({ complete: false, dropped: 6 });

    // A clear by the other process: a kept entry from before it is dropped, one after it appended.
    await openGuard();
    await expect(slow.journal.append(admittedEntry(20, T0 + 2_000_000), reset)).rejects.toThrow();
    await other.journal.clear(T0 + 2_000_010);
    await expect(slow.journal.append(admittedEntry(21, T0 + 2_000_020), reset)).rejects.toThrow();
    await closeGuard();
    listed = await other.journal.list();
    expect(listed.map((e) => e.seq).sort((a, b) => a - b)).toEqual([2, 3, 21]);
  }, 30_000);

  it('lists the journal entries it kept once the guard closes, sending them before the read when no other call has reached Redis', async () => {
    const { store: slow, slowly, skip } = await storeOnTestClock(`slow-read-${process.pid}`);
    const T0 = 1_750_000_000_000;
    await slowly(() => slow.journal.append(admittedEntry(1, T0), 0));
    await expect(slow.journal.append(admittedEntry(2, T0 + 1), 0)).rejects.toThrow();
    skip();
    expect((await slow.journal.list()).map((e) => e.seq)).toEqual([1, 2]);
    expect(await slow.journal.info()).toMatchObject({ complete: true, size: 2, dropped: 0 });
  });
});
