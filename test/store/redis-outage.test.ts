import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/index.js';
import { createSeededWorld } from '../../src/fixtures/world.js';
import type { SimRequest, SimResponse } from '../../src/sim/messages.js';
import type { SharedStore } from '../../src/sim/store/shared-store.js';
import { MAX_IN_FLIGHT } from '../../src/store/redis-batch.js';
import { createRedisStore, SLOW_GUARD_MS, type RedisStore } from '../../src/store/redis-store.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { secretOf } from '../helpers/sim.js';
import { admittedEntry } from '../helpers/journal-entries.js';

/** One server for the file, persisting every write: these tests stop, kill and restart it. */
let redis: RedisServer;
const opened: RedisStore[] = [];
let prefixes = 0;

beforeAll(async () => {
  redis = await startRedis({ appendonly: true });
});

afterAll(async () => {
  await Promise.allSettled(opened.map((s) => s.close()));
  await redis?.stop();
});

const COMMAND_TIMEOUT_MS = 800;

function openStore(url = redis.url): RedisStore {
  const store = createRedisStore({ url, prefix: `outage-${process.pid}-${++prefixes}`, commandTimeoutMs: COMMAND_TIMEOUT_MS });
  opened.push(store);
  return store;
}

/** Polls `probe` until it resolves true; fails after `timeoutMs`. Resolves with the time it took. */
async function eventually(probe: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await probe().catch(() => false)) return Date.now() - start;
    if (Date.now() - start > timeoutMs) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const SETTINGS = { seed: '42', profile: 'spec', limits: 'enforce', journalCapacity: 100, fingerprint: '' } as const;

/** Every method of a shared store, called once. */
function everyMethod(store: SharedStore): Record<string, () => Promise<unknown>> {
  return {
    open: () => store.open(SETTINGS),
    begin: () => store.begin(true, 0),
    append: () => store.append('c'),
    read: () => store.read(0, 10),
    reset: () => store.reset('r', 1),
    consume: () => store.windows.consume('w', 1, 10, 1000),
    peek: () => store.windows.peek('w', 1, 10, 1000),
    acquire: () => store.leases.acquire('fp', 20),
    release: () => store.leases.release('fp', 'nobody:1'),
    total: () => store.leases.total(),
    held: () => store.leases.held('fp'),
    journalAppend: () =>
      store.journal.append({
        seq: 1,
        at: 1,
        requestId: 'r',
        method: 'GET',
        path: '/',
        route: null,
        identity: 'anon:1',
        keyId: null,
        outcome: 'admitted',
        status: 200,
        checks: [],
        inFlight: null,
        inFlightCap: null,
        faults: [],
        fingerprint: 'f',
        retryAfter: null,
        warnings: [],
        reason: null,
      }, 0),
    journalList: () => store.journal.list(),
    journalInfo: () => store.journal.info(),
    journalClear: () => store.journal.clear(1),
    ordinal: () => store.ordinal('o'),
  };
}

/** How each method settled. */
async function settleAll(store: SharedStore): Promise<Record<string, { ok: boolean; message: string }>> {
  const out: Record<string, { ok: boolean; message: string }> = {};
  await Promise.all(
    Object.entries(everyMethod(store)).map(async ([name, run]) => {
      try {
        await run();
        out[name] = { ok: true, message: '' };
      } catch (error) {
        out[name] = { ok: false, message: (error as Error).message };
      }
    }),
  );
  return out;
}

describe('the Redis store when Redis goes away', () => {
  it('rejects every method at once while Redis is stopped, without waiting for the command timeout, and the same store works again once it is back', async () => {
    const store = openStore();
    await store.open(SETTINGS);
    expect(await store.append('before')).toBe(1);

    await redis.stop();
    const down = await settleAll(store);
    for (const [name, result] of Object.entries(down)) {
      expect(result.ok, name).toBe(false);
      expect(result.message, name).toMatch(new RegExp(`^cannot reach the store at ${store.location.replace(/[/.]/g, '\\$&')} \\(`));
      // Rejected for the lost connection, not by the command timeout: nothing waited (whatever the machine's speed).
      expect(result.message, name).not.toContain('timed out');
    }

    await redis.restart();
    const recovered = await eventually(async () => (await store.read(0, 10)).length === 1, 5000);
    expect(recovered).toBeLessThan(5000);
    const up = await settleAll(store);
    for (const [name, result] of Object.entries(up)) expect(result, name).toMatchObject({ ok: true });
    expect(store.errors).toBeGreaterThan(0);
    expect(store.lastError).toEqual(expect.any(String));
  });

  it('rejects a command once its command timeout has passed while Redis hangs, and answers again when it resumes', async () => {
    const store = openStore();
    await store.begin(true, 0);
    process.kill(redis.pid, 'SIGSTOP');
    try {
      // Redis answers nothing until SIGCONT, which comes after: only the command timeout can end the wait.
      const start = Date.now();
      await expect(store.windows.consume('w', 1, 10, 1000)).rejects.toThrow(`cannot reach the store at ${store.location} (Command timed out)`);
      expect(Date.now() - start).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 1);
    } finally {
      process.kill(redis.pid, 'SIGCONT');
    }
    await eventually(async () => (await store.begin(true, 0)).index > 1, 5000);
  });

  it('answers 503 with Retry-After to every request waiting on the batches Redis never answers, refuses those queued behind them at once, then serves again', async () => {
    let skipped = 0;
    // Once Redis resumes it runs the calls that timed out, whose begins take in-flight slots
    // (as many as the cap, with MAX_IN_FLIGHT calls of five) the process never heard of: it
    // gives them back when Redis answers again, rather than leaving the key refused until the
    // leases expire (a minute here, so only the give-back lets the requests through in time).
    const store = createRedisStore({ url: redis.url, prefix: `outage-${process.pid}-${++prefixes}`, commandTimeoutMs: COMMAND_TIMEOUT_MS, leaseTtlMs: 60_000, now: () => Date.now() + skipped });
    opened.push(store);
    const sim = createSimulator({ seed: 42, createWorld: createSeededWorld, store });
    await sim.ready();
    const request: SimRequest = { method: 'GET', path: '/v1/query/websites', query: {}, headers: { 'x-api-key': secretOf(sim, 'key_acme_read') } };
    const immediate = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    // Past the turn in which the batcher sends what the requests queued (it schedules its call
    // from their first steps' microtasks, after the first of these immediates was scheduled).
    const turn = async (): Promise<void> => {
      await immediate();
      await immediate();
    };
    process.kill(redis.pid, 'SIGSTOP');
    let answers: SimResponse[];
    try {
      const trips = store.roundTrips;
      const operations = store.operations;
      // Each turn's five begins go as one call at the end of the turn, which Redis never
      // answers, while fewer than MAX_IN_FLIGHT calls are in flight; the five asked after
      // those wait for the next call.
      const sentOnes: Promise<SimResponse>[] = [];
      for (let call = 1; call <= MAX_IN_FLIGHT; call++) {
        sentOnes.push(...Array.from({ length: 5 }, () => sim.handle(request)));
        await turn();
        expect(store.roundTrips - trips).toBe(call);
      }
      const queued = Array.from({ length: 5 }, () => sim.handle(request));
      await turn();
      expect(store.roundTrips - trips).toBe(MAX_IN_FLIGHT);
      answers = await Promise.all([...sentOnes, ...queued]);
      // The calls that timed out opened the slow-answer guard: the queued call was refused
      // without being sent, rather than waiting out a timeout of its own.
      expect(store.roundTrips - trips).toBe(MAX_IN_FLIGHT);
      expect(store.operations - operations).toBe(5 * MAX_IN_FLIGHT);
    } finally {
      process.kill(redis.pid, 'SIGCONT');
    }
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(answer.headers['Retry-After']).toBe('5');
      // Refused before it was numbered, so never journaled: the adapter's request log says why.
      expect(answer.reason).toMatchObject({ code: 'SERVICE_UNAVAILABLE', cause: expect.stringMatching(/^the admission store failed \(\w+\)$/) });
      expect(answer.body).not.toContain('admission store');
    }
    skipped += SLOW_GUARD_MS + 1;
    await eventually(async () => (await sim.handle(request)).status === 200, 5000);
    // Every slot the unheard calls took was given back: none is held once the requests ended.
    await eventually(async () => (await store.leases.total()) === 0, 5000);
  });

  it('keeps a logged command across a crash of Redis when it persists every write', async () => {
    const store = openStore();
    const position = await store.append('acknowledged before the crash');
    redis.kill();
    await redis.restart();
    await eventually(async () => (await store.read(position - 1, 1)).length === 1, 5000);
    expect(await store.read(0, 10)).toEqual([{ position, body: 'acknowledged before the crash' }]);
  });

  it('runs the calls asked in one turn in the order asked once Redis is back from a restart that forgot its scripts', async () => {
    const store = openStore();
    // The batch script was sent on the first connection.
    await store.journal.append(admittedEntry(1, 1), 0);
    redis.kill();
    await redis.restart();
    await eventually(() => store.read(0, 1).then(() => true), 5000);
    // A read asked after a write sees it: the write's batch goes first, on the new connection too.
    const appended = store.journal.append(admittedEntry(7, 2), 0);
    const listed = store.journal.list();
    await appended;
    expect((await listed).map((e) => e.seq)).toEqual([1, 7]);
    // A command logged before a reset is asked takes its place before the reset, not after.
    const [logged, reset] = await Promise.all([store.append('asked before the reset'), store.reset('r', 3)]);
    expect(logged).toBeLessThan(reset);
  });

  it('binds a Redis that lost its data to the settings again once it is back', async () => {
    const store = openStore();
    await store.open(SETTINGS);
    const other = createRedisStore({ url: redis.url, prefix: store.prefix, commandTimeoutMs: COMMAND_TIMEOUT_MS });
    opened.push(other);
    // Redis loses everything (as a restart without persistence would; the flush is persisted too).
    const raw = new Redis(redis.url);
    await raw.flushall();
    await raw.quit();
    redis.kill();
    await redis.restart();
    // Once the store is connected again, it has written its settings back before anything else.
    await eventually(async () => (await store.read(0, 10)).length === 0, 5000);
    await eventually(async () => (await other.leases.total()) === 0, 5000);
    await expect(other.open({ ...SETTINGS, seed: '7' })).rejects.toThrow('holds a simulator with seed 42; this process has seed 7');
  });

  it('says it cannot reach Redis, with the reason, when nothing listens at the address', async () => {
    const stopped = await startRedis();
    const url = stopped.url;
    await stopped.stop();
    const store = openStore(url);
    // The refused connection is the reason, not the command timeout: nothing waited.
    await expect(store.open(SETTINGS)).rejects.toThrow(`cannot reach the store at ${url} (connect ECONNREFUSED)`);
  });
});
