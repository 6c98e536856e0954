import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/index.js';
import { createSeededWorld } from '../../src/fixtures/world.js';
import type { SharedStore, StoreDataLoss } from '../../src/sim/store/shared-store.js';
import { createRedisStore, type RedisStore } from '../../src/store/redis-store.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { call, secretOf } from '../helpers/sim.js';

/**
 * A Redis restarted without persistence answers again, empty: the simulator must say so (the
 * store's onDataLoss, which the CLI logs, and GET /__sim/health) instead of carrying on as if
 * the records it acknowledged were still there. A Redis that keeps its data (AOF) says nothing.
 */
const stores: RedisStore[] = [];
const servers: RedisServer[] = [];

afterAll(async () => {
  await Promise.allSettled(stores.map((s) => s.close()));
  await Promise.allSettled(servers.map((s) => s.stop()));
});

/** Two simulators on one prefix, as the workers of `serve --workers 2`; each store's losses collected. */
async function twoProcesses(redis: RedisServer, name: string): Promise<{ sims: Simulator[]; losses: StoreDataLoss[][] }> {
  const losses: StoreDataLoss[][] = [[], []];
  const sims = losses.map((seen) => {
    // A short lease TTL renews (and checks the store's epoch) every 100 ms.
    const store = createRedisStore({ url: redis.url, prefix: `${name}-${process.pid}`, commandTimeoutMs: 1000, leaseTtlMs: 300, onDataLoss: (loss) => seen.push(loss) });
    stores.push(store);
    return createSimulator({ seed: 42, createWorld: createSeededWorld, store });
  });
  for (const sim of sims) await sim.ready();
  return { sims, losses };
}

/** Polls `probe` until it holds; fails after `timeoutMs` (a bound, not a sleep deciding the outcome). */
async function until(probe: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await Promise.resolve(probe()).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function track(sim: Simulator, name = 'loss_probe'): Promise<number> {
  const answer = await call(sim, 'POST', '/track', { key: secretOf(sim, 'key_acme_track'), body: { name, websiteId: 'web_acme_store', anonymousId: 'anon_loss' } });
  return answer.status;
}

async function countTracked(sim: Simulator, name = 'loss_probe'): Promise<number | undefined> {
  const answer = await call(sim, 'POST', '/v1/query', {
    key: secretOf(sim, 'key_acme_read'),
    query: { website_id: 'web_acme_store' },
    body: { parameters: ['custom_events_summary'], preset: 'today', filters: [{ field: 'event_name', op: 'eq', value: name }] },
  });
  return answer.status === 200 ? (answer.json.data[0].data[0]?.total_events as number) : undefined;
}

describe('a Redis store that lost its data', () => {
  let volatile: RedisServer;
  let durable: RedisServer;
  beforeAll(async () => {
    volatile = await startRedis();
    durable = await startRedis({ appendonly: true });
    servers.push(volatile, durable);
  });

  it('is reported by every process (onDataLoss, GET /__sim/health) once Redis comes back empty, and the records it held are gone', async () => {
    const { sims, losses } = await twoProcesses(volatile, 'data-loss');
    const [a, b] = sims as [Simulator, Simulator];
    expect(await track(a)).toBe(200);
    expect(await countTracked(b)).toBe(1);
    const before = await call(a, 'GET', '/__sim/health');
    expect(before.json.store).toEqual({ location: volatile.url, prefix: `data-loss-${process.pid}`, dataLoss: null });

    volatile.kill();
    await volatile.restart();

    await until(() => losses.every((seen) => seen.length === 1), 10_000);
    for (const seen of losses) {
      expect(seen[0]!.message).toMatch(/^the store at redis:\/\/127\.0\.0\.1:\d+\/0 \(prefix data-loss-\d+\) lost the data it held \(a Redis restarted without persistence, or flushed\)/);
      expect(seen[0]!.message).toContain('--appendonly yes');
    }
    for (const sim of sims) {
      const health = await call(sim, 'GET', '/__sim/health');
      expect(health.status).toBe(200);
      expect(health.json.store.dataLoss).toEqual({ count: 1, at: expect.any(Number), message: expect.stringContaining('lost the data it held') });
    }
    // What the store held is gone, as health says; the simulator works on from the seed.
    await until(async () => (await countTracked(a)) === 0, 10_000);
    expect(await track(b)).toBe(200);
    expect(await countTracked(a)).toBe(1);
  });

  it('is not reported when Redis restarts with its data (AOF): the records it acknowledged are all there', async () => {
    const { sims, losses } = await twoProcesses(durable, 'data-kept');
    const [a, b] = sims as [Simulator, Simulator];
    expect(await track(a)).toBe(200);
    durable.kill();
    await durable.restart();
    // Both processes are connected again: a request through each answers. Each compared the
    // epoch on reconnecting, first on its connection, so its answer came before the request's.
    await until(async () => (await countTracked(a)) === 1 && (await countTracked(b)) === 1, 10_000);
    expect(losses).toEqual([[], []]);
    expect((await call(b, 'GET', '/__sim/health')).json.store.dataLoss).toBeNull();
  });

  it('is not taken for a loss when a begin is answered after a later command was applied: the records stay', async () => {
    const { a, b, late } = await lateAndOther(durable, 'late-begin');
    expect(await track(a)).toBe(200);
    // b logs a command a has not applied.
    expect(await track(b)).toBe(200);
    const release = late.holdNext();
    const first = a.handle({ method: 'GET', path: '/v1/query/websites', query: {}, headers: { 'x-api-key': secretOf(a, 'key_acme_read') } });
    await until(() => late.holding(), 5000);
    // A /track on a, begun after the held request: it catches up, logs its record and applies it.
    expect(await track(a)).toBe(200);
    release();
    expect((await first).status).toBe(200);
    expect(await countTracked(a)).toBe(3);
    expect(await countTracked(b)).toBe(3);
  });

  it('is taken for a loss when a begin answered late finds a store emptied since, though others logged past the position it had applied', async () => {
    const emptied = await startRedis();
    servers.push(emptied);
    const { a, b, late } = await lateAndOther(emptied, 'late-loss');
    expect(await track(a)).toBe(200);
    expect(await track(a)).toBe(200);
    const client = new Redis(emptied.url);
    await client.flushall();
    client.disconnect();
    const release = late.holdNext();
    const held = a.handle({ method: 'GET', path: '/v1/query/websites', query: {}, headers: { 'x-api-key': secretOf(a, 'key_acme_read') } });
    await until(() => late.holding(), 5000);
    // The emptied log grows again past the position a had applied, with other commands.
    for (let i = 0; i < 3; i++) expect(await track(b, 'after_loss')).toBe(200);
    release();
    await held;
    // a starts over from the seed and applies the new log: both count the three new records only.
    expect([await countTracked(a), await countTracked(a, 'after_loss')]).toEqual([0, 3]);
    expect([await countTracked(b), await countTracked(b, 'after_loss')]).toEqual([0, 3]);
  });

  it('answers a begin handled late after a reset past it from the state before the reset, and applies the reset next', async () => {
    const { a, b, late } = await lateAndOther(durable, 'late-reset');
    expect(await track(a)).toBe(200);
    expect(await track(a)).toBe(200);
    expect(await track(b)).toBe(200);
    const release = late.holdNext();
    const counted = countTracked(a);
    await until(() => late.holding(), 5000);
    expect(await track(a)).toBe(200);
    expect((await call(b, 'POST', '/__sim/reset')).status).toBe(200);
    release();
    // Four records before the reset, none after it: never a part of the history.
    expect(await counted).toBe(4);
    expect(await countTracked(a)).toBe(0);
  });

  it('answers 409 a logged request a reset erased before its process applied it, rather than leaving it waiting', async () => {
    const { a, b, late } = await lateAndOther(durable, 'late-append', ['append']);
    const release = late.holdNext();
    const posted = call(a, 'POST', '/track', { key: secretOf(a, 'key_acme_track'), body: { name: 'erased', websiteId: 'web_acme_store', anonymousId: 'anon_erased' } });
    await until(() => late.holding(), 5000);
    expect((await call(b, 'POST', '/__sim/reset')).status).toBe(200);
    release();
    const answer = await posted;
    expect(answer.status).toBe(409);
    expect(answer.json).toMatchObject({ code: 'CONFLICT' });
    expect(await countTracked(a, 'erased')).toBe(0);
  });
});

/** Two simulators on one prefix: `a` on a store whose next call named is held ({@link holdingBegins}), `b` on a plain one. */
async function lateAndOther(redis: RedisServer, name: string, calls?: readonly string[]): Promise<{ a: Simulator; b: Simulator; late: ReturnType<typeof holdingBegins> }> {
  const prefix = `${name}-${process.pid}`;
  const late = holdingBegins(createRedisStore({ url: redis.url, prefix }), calls);
  const other = createRedisStore({ url: redis.url, prefix });
  stores.push(other);
  const a = createSimulator({ seed: 42, createWorld: createSeededWorld, store: late.store });
  const b = createSimulator({ seed: 42, createWorld: createSeededWorld, store: other });
  await a.ready();
  await b.ready();
  return { a, b, late };
}

/**
 * A store whose next begin (or other call named), once asked for, is answered only when
 * `release` is called: as if its answer were handled after answers Redis gave later (its log
 * position then older than the replica's).
 */
function holdingBegins(store: RedisStore, calls: readonly string[] = ['begin', 'beginThenAdmit']): { store: SharedStore; holdNext(): () => void; holding(): boolean } {
  stores.push(store);
  let armed = false;
  let holding = false;
  let release = (): void => undefined;
  const held = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof name !== 'string' || !calls.includes(name) || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const answer = (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (!armed) return answer;
        armed = false;
        holding = true;
        const gate = new Promise<void>((resolve) => (release = resolve));
        return answer.then(async (begun) => {
          await gate;
          return begun;
        });
      };
    },
  }) as SharedStore;
  return {
    store: held,
    holdNext: () => {
      armed = true;
      return () => release();
    },
    holding: () => holding,
  };
}
