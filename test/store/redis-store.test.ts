import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeSlot, createSlidingLog, peekSlots, type SlidingLog } from '../../src/sim/admission/sliding-log.js';
import { BEGIN_COMMANDS, type SharedSettings } from '../../src/sim/store/shared-store.js';
import { createRedisStore, JOURNAL_PAGE, type RedisStore, type RedisStoreOptions } from '../../src/store/redis-store.js';
import { admittedEntry } from '../helpers/journal-entries.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

let redis: RedisServer;
/** Stores and clients to close after the file. */
const opened: { close(): Promise<unknown> }[] = [];
let prefixes = 0;

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.allSettled(opened.map((s) => s.close()));
  await redis?.stop();
});

/** A store on a prefix no other test uses (or on `prefix`). */
function openStore(options: Partial<RedisStoreOptions> = {}): RedisStore {
  const store = createRedisStore({ url: redis.url, prefix: `test-${process.pid}-${++prefixes}`, ...options });
  opened.push(store);
  return store;
}

/** A plain client, to look at the keys a store wrote. */
function rawClient(): Redis {
  const client = new Redis(redis.url);
  opened.push({ close: () => client.quit() });
  return client;
}

/** Polls `probe` until it returns true; fails after `timeoutMs`. */
async function eventually(probe: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - start;
    if (Date.now() - start > timeoutMs) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const SETTINGS: SharedSettings = { seed: '42', profile: 'spec', limits: 'enforce', journalCapacity: 5, fingerprint: '{"world":"default"}' };

/** An epoch instant in 2025, so instants have 13 digits as they do in a running simulator. */
const T0 = 1_750_000_000_000;


describe('sliding windows in Redis', () => {
  it('decides every check exactly as consumeSlot does, across identities and lowered limits, and peek predicts it', async () => {
    const windowOf = [50, 100, 30];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ id: fc.integer({ min: 0, max: 2 }), gap: fc.integer({ min: 0, max: 40 }), limit: fc.integer({ min: 1, max: 4 }) }),
          { maxLength: 80 },
        ),
        async (steps) => {
          const store = openStore();
          const logs: SlidingLog[] = [createSlidingLog(), createSlidingLog(), createSlidingLog()];
          let now = T0;
          let order = 0;
          for (const { id, gap, limit } of steps) {
            now += gap;
            const windowMs = windowOf[id]!;
            const log = logs[id]!;
            expect(await store.windows.peek(`id-${id}`, now, limit, windowMs)).toEqual(peekSlots(log, now, limit, windowMs));
            const decision = await store.windows.consume(`id-${id}`, now, limit, windowMs);
            expect(decision).toEqual({ ...consumeSlot(log, now, limit, windowMs), order: ++order, at: now });
          }
          await store.close();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('judges a check that arrives with an earlier instant at the latest instant judged, so no window runs backwards', async () => {
    const store = openStore();
    await store.windows.consume('a', T0 + 100, 5, 1000);
    const late = await store.windows.consume('b', T0 + 99, 5, 1000);
    expect(late).toMatchObject({ allowed: true, at: T0 + 100, reset: T0 + 1100, order: 2 });
    expect(await store.windows.consume('b', T0 + 101, 5, 1000)).toMatchObject({ at: T0 + 101, remaining: 3 });
  });

  it('keeps instants up to the largest a JavaScript date can hold exactly', async () => {
    const store = openStore();
    const far = 8_639_999_999_999_123;
    expect(await store.windows.consume('a', far, 1, 60_000)).toMatchObject({ allowed: true, reset: far + 60_000, at: far });
    expect(await store.windows.peek('a', far + 1, 1, 60_000)).toEqual({ limit: 1, held: 1, remaining: 0, reset: far + 60_000 });
  });

  it('records nothing when peeked: no entry, no check number', async () => {
    const store = openStore();
    for (let i = 0; i < 5; i++) expect(await store.windows.peek('a', T0, 2, 1000)).toEqual({ limit: 2, held: 0, remaining: 2, reset: null });
    expect(await store.windows.consume('a', T0, 2, 1000)).toMatchObject({ allowed: true, remaining: 1, order: 1 });
    expect(await store.windows.peek('a', T0, 2, 1000)).toEqual({ limit: 2, held: 1, remaining: 1, reset: T0 + 1000 });
    expect(await store.windows.consume('a', T0, 2, 1000)).toMatchObject({ allowed: true, remaining: 0, order: 2 });
  });

  it('numbers checks in one order across every identity and every store object on the prefix', async () => {
    const a = openStore();
    const b = openStore({ prefix: a.prefix });
    const orders = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).windows.consume(`id-${i % 5}`, T0, 100, 1000)));
    expect(orders.map((d) => d.order).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('deletes windows idle for a whole window every 4096 checks, and only those', async () => {
    const store = openStore();
    const client = rawClient();
    const windowKeys = async (): Promise<number> => (await client.keys(`{${store.prefix}}:win:*`)).length;
    await store.windows.consume('busy', T0, 10, 60_000);
    const batch = (from: number, count: number, now: number) =>
      Promise.all(Array.from({ length: count }, (_, i) => store.windows.consume(`idle-${from + i}`, now, 10, 1000)));
    await batch(0, 2000, T0);
    expect(await windowKeys()).toBe(2001);
    // Checks 2002 to 4095, a window later: the first 2000 windows are idle but not yet swept.
    await batch(2000, 2094, T0 + 1000);
    expect(await windowKeys()).toBe(4095);
    // Check 4096 sweeps up to 1000 idle windows; the busy one still holds its entry.
    expect(await store.windows.consume('busy', T0 + 1000, 10, 60_000)).toMatchObject({ order: 4096, remaining: 8 });
    expect(await windowKeys()).toBe(3095);
    expect(await store.windows.peek('busy', T0 + 1000, 10, 60_000)).toMatchObject({ held: 2 });
  });
});

describe('errors Redis answers', () => {
  it('reject the call with what Redis said, in one line', async () => {
    const store = openStore();
    await rawClient().set(`{${store.prefix}}:win:broken`, 'not a window');
    await expect(store.windows.consume('broken', T0, 1, 1000)).rejects.toThrow(
      new RegExp(`^the store at ${store.location.replace(/[/.]/g, '\\$&')} answered: .*WRONGTYPE`),
    );
    expect(await store.windows.consume('fine', T0, 1, 1000)).toMatchObject({ allowed: true });
  });
});

describe('in-flight leases in Redis', () => {
  it('refuses a lease at the cap and takes one again after a release', async () => {
    const store = openStore();
    const first = await store.leases.acquire('fp-a', 2);
    const second = await store.leases.acquire('fp-a', 2);
    expect([first.acquired, first.held, second.acquired, second.held]).toEqual([true, 0, true, 1]);
    expect(await store.leases.acquire('fp-a', 2)).toEqual({ acquired: false, held: 2, lease: null });
    expect(await store.leases.acquire('fp-b', 2)).toMatchObject({ acquired: true, held: 0 });
    expect([await store.leases.held('fp-a'), await store.leases.total()]).toEqual([2, 3]);
    await store.leases.release('fp-a', first.lease!);
    await store.leases.release('fp-a', first.lease!);
    expect(await store.leases.held('fp-a')).toBe(1);
    expect(await store.leases.acquire('fp-a', 2)).toMatchObject({ acquired: true, held: 1 });
  });

  it('lists a fingerprint among those holding leases from its first lease until its last is given back, so the total counts it', async () => {
    const store = openStore();
    const listed = (): Promise<string[]> => rawClient().smembers(`{${store.prefix}}:leases`);
    const first = await store.leases.acquire('fp-a', 3);
    const second = await store.leases.acquire('fp-a', 3);
    expect(await listed()).toEqual(['fp-a']);
    await store.leases.release('fp-a', first.lease!);
    expect([await listed(), await store.leases.total()]).toEqual([['fp-a'], 1]);
    await store.leases.release('fp-a', second.lease!);
    expect([await listed(), await store.leases.total()]).toEqual([[], 0]);
    await store.leases.acquire('fp-a', 3);
    expect([await listed(), await store.leases.total()]).toEqual([['fp-a'], 1]);
  });

  it('counts the leases of every process on the prefix against one cap', async () => {
    const a = openStore();
    const b = openStore({ prefix: a.prefix });
    expect(a.processId).not.toBe(b.processId);
    const taken = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).leases.acquire('fp', 20)));
    expect(taken.filter((t) => t.acquired)).toHaveLength(20);
    expect(new Set(taken.map((t) => t.lease).filter(Boolean)).size).toBe(20);
    expect(await a.leases.total()).toBe(20);
  });

  it('frees the leases of a process that stopped renewing them within a few seconds', async () => {
    const survivor = openStore();
    const client = new Redis(redis.url);
    const dying = createRedisStore({ url: redis.url, prefix: survivor.prefix, leaseTtlMs: 600, client });
    expect(await dying.leases.acquire('fp', 1)).toMatchObject({ acquired: true });
    expect(await survivor.leases.acquire('fp', 1)).toMatchObject({ acquired: false, held: 1 });
    // The process dies: its connection drops and nothing releases or renews its lease.
    client.disconnect();
    const waited = await eventually(async () => (await survivor.leases.held('fp')) === 0, 5000);
    expect(waited).toBeLessThan(3000);
    expect(await survivor.leases.total()).toBe(0);
    expect(await survivor.leases.acquire('fp', 1)).toMatchObject({ acquired: true, held: 0 });
    await dying.close();
  });

  it('keeps the leases of a live process past their time to live by renewing them', async () => {
    const store = openStore({ leaseTtlMs: 300 });
    const { lease } = await store.leases.acquire('fp', 1);
    // Real time is the subject: the lease must outlive three times its time to live.
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(await store.leases.held('fp')).toBe(1);
    await store.leases.release('fp', lease!);
    expect(await store.leases.held('fp')).toBe(0);
  });

  it('gives back the leases it holds when closed', async () => {
    const observer = openStore();
    const store = createRedisStore({ url: redis.url, prefix: observer.prefix });
    await store.leases.acquire('fp', 5);
    await store.leases.acquire('fp', 5);
    await store.close();
    expect(await observer.leases.total()).toBe(0);
  });
});

describe("a request's begin with the in-flight gate's ask in Redis", () => {
  const window = (id: string, limit: number, now = T0) => ({ id, now, limit, windowMs: 60_000 });

  it('checks the next window only when the slot was taken and the first window admitted the request, in one numbered run of checks', async () => {
    const store = openStore();
    const ask = { fingerprint: 'fp-a', cap: 3, window: window('quota', 2), next: window('endpoint', 1) };
    const first = await store.beginThenAdmit(0, ask);
    expect(first.admission).toMatchObject({ slot: { acquired: true }, decision: { allowed: true, order: 1 }, nextDecision: { allowed: true, order: 2 } });
    // The endpoint window is full: checked, refused.
    const second = await store.beginThenAdmit(0, ask);
    expect(second.admission).toMatchObject({ slot: { acquired: true }, decision: { allowed: true, order: 3 }, nextDecision: { allowed: false, order: 4 } });
    // The quota is full: the next window is not reached, and records nothing.
    const third = await store.beginThenAdmit(0, ask);
    expect(third.admission).toMatchObject({ slot: { acquired: true }, decision: { allowed: false, order: 5 }, nextDecision: null });
    // The gate is full: neither window is checked.
    const fourth = await store.beginThenAdmit(0, ask);
    expect(fourth.admission).toMatchObject({ slot: { acquired: false, held: 3 }, decision: null, nextDecision: null });
    expect(await store.windows.peek('endpoint', T0, 1, 60_000)).toMatchObject({ held: 1 });
    expect(await store.windows.peek('quota', T0, 2, 60_000)).toMatchObject({ held: 2 });
  });

  it('checks the next window after the slot alone when no first window is asked, and takes nothing when the log moved', async () => {
    const store = openStore();
    const alone = await store.beginThenAdmit(0, { fingerprint: 'fp-b', cap: 5, window: null, next: window('endpoint', 5) });
    expect(alone.admission).toMatchObject({ slot: { acquired: true }, decision: null, nextDecision: { allowed: true, remaining: 4 } });
    await store.append('{"a":1}');
    const moved = await store.beginThenAdmit(0, { fingerprint: 'fp-b', cap: 5, window: null, next: window('endpoint', 5) });
    expect(moved.admission).toBeNull();
    expect(await store.windows.peek('endpoint', T0, 5, 60_000)).toMatchObject({ held: 1 });
    expect(await store.leases.held('fp-b')).toBe(1);
  });

  it('leaves the next window unchecked, and the slot and first window taken, when Redis fails it', async () => {
    const store = openStore();
    await rawClient().set(`{${store.prefix}}:win:broken`, 'not a sorted set');
    const answer = await store.beginThenAdmit(0, { fingerprint: 'fp-c', cap: 5, window: window('quota', 5), next: window('broken', 5) });
    expect(answer.admission).toMatchObject({ slot: { acquired: true }, decision: { allowed: true }, nextDecision: null });
  });
});

describe('the command log and request numbering in Redis', () => {
  it('numbers requests across two store objects on one prefix, reserving journal positions only for service requests', async () => {
    const a = openStore();
    const b = openStore({ prefix: a.prefix });
    expect(await a.begin(true, 0)).toEqual({ index: 1, seq: 1, last: 0, commands: [] });
    expect(await b.begin(false, 0)).toEqual({ index: 2, seq: 0, last: 0, commands: [] });
    expect(await b.begin(true, 0)).toMatchObject({ index: 3, seq: 2 });
    const together = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).begin(true, 0)));
    expect(together.map((x) => x.index).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 4));
    expect(together.map((x) => x.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 3));
  });

  it('logs commands at consecutive positions and returns those after a given one, from begin and from read', async () => {
    const a = openStore();
    const b = openStore({ prefix: a.prefix });
    const positions = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).append(`c${i}`)));
    expect([...positions].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
    const begun = await a.begin(true, 4);
    expect(begun.last).toBe(6);
    expect(begun.commands.map((c) => c.position)).toEqual([5, 6]);
    const all = await b.read(0, 100);
    expect(all.map((c) => c.position)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const c of all) expect(c.body).toBe(`c${positions.indexOf(c.position)}`);
    expect((await b.read(2, 2)).map((c) => c.position)).toEqual([3, 4]);
    expect(await b.read(6, 10)).toEqual([]);
  });

  it(`returns at most ${BEGIN_COMMANDS} commands from begin and leaves the rest to read`, async () => {
    const store = openStore();
    for (let i = 0; i < BEGIN_COMMANDS + 10; i++) await store.append(`c${i}`);
    const begun = await store.begin(false, 0);
    expect(begun.last).toBe(BEGIN_COMMANDS + 10);
    expect(begun.commands).toHaveLength(BEGIN_COMMANDS);
    expect((await store.read(BEGIN_COMMANDS, 100)).map((c) => c.position)).toEqual(Array.from({ length: 10 }, (_, i) => BEGIN_COMMANDS + i + 1));
  });

  it('counts named ordinals from 1, one count per name', async () => {
    const store = openStore();
    expect([await store.ordinal('a'), await store.ordinal('a'), await store.ordinal('b'), await store.ordinal('a')]).toEqual([1, 2, 1, 3]);
  });
});

describe('a reset of the Redis store', () => {
  it('forgets windows, the journal, counters, ordinals and the log, keeps positions growing and keeps leases and the epoch', async () => {
    const store = openStore();
    const client = rawClient();
    await store.open(SETTINGS);
    await store.windows.consume('a', T0, 1, 60_000);
    await store.begin(true, 0);
    await store.ordinal('x');
    await store.append('one');
    await store.append('two');
    await store.journal.append(admittedEntry(1, T0), 0);
    const { lease } = await store.leases.acquire('fp', 3);

    expect(await store.reset('the reset', T0 + 5)).toBe(3);

    expect(await store.windows.consume('a', T0, 1, 60_000)).toMatchObject({ allowed: true, order: 1, at: T0 });
    expect(await store.begin(true, 0)).toEqual({ index: 1, seq: 1, last: 3, commands: [{ position: 3, body: 'the reset' }] });
    expect(await store.read(0, 10)).toEqual([{ position: 3, body: 'the reset' }]);
    expect(await store.append('after')).toBe(4);
    expect(await store.ordinal('x')).toBe(1);
    expect(await store.journal.list()).toEqual([]);
    expect(await store.journal.info()).toEqual({ complete: true, since: T0 + 5, capacity: 5, size: 0, dropped: 0 });
    expect(await store.leases.held('fp')).toBe(1);
    expect(await store.leases.acquire('fp', 3)).toMatchObject({ held: 1 });
    await store.open(SETTINGS);
    await store.leases.release('fp', lease!);
    const left = (await client.keys(`{${store.prefix}}:*`)).map((k) => k.slice(store.prefix.length + 3)).sort();
    expect(left).toEqual(['checks', 'epoch', 'high', 'journal:info', 'lease:fp', 'leases', 'log', 'logn', 'meta', 'ordinal', 'req', 'seq', 'win:a', 'windows']);
  });
});

describe('prefixes on one Redis', () => {
  it('keep two simulators apart: no shared window, counter, lease, log or journal', async () => {
    const a = openStore();
    const b = openStore();
    await a.open(SETTINGS);
    await b.open({ ...SETTINGS, seed: '7' });
    expect(await a.windows.consume('w', T0, 1, 1000)).toMatchObject({ allowed: true, order: 1 });
    expect(await b.windows.consume('w', T0, 1, 1000)).toMatchObject({ allowed: true, order: 1 });
    await a.leases.acquire('fp', 1);
    expect(await b.leases.acquire('fp', 1)).toMatchObject({ acquired: true, held: 0 });
    await a.append('only in a');
    expect(await b.read(0, 10)).toEqual([]);
    expect(await b.begin(true, 0)).toMatchObject({ index: 1, seq: 1, last: 0 });
    await a.journal.append(admittedEntry(1, T0), 0);
    expect(await b.journal.list()).toEqual([]);
    await b.reset('reset b', T0);
    expect(await a.read(0, 10)).toEqual([{ position: 1, body: 'only in a' }]);
    expect(await a.leases.held('fp')).toBe(1);
  });
});

describe('opening the Redis store with settings', () => {
  it('accepts the same settings again and refuses different ones, naming each difference', async () => {
    const first = openStore();
    await first.open(SETTINGS);
    const second = openStore({ prefix: first.prefix });
    await expect(second.open(SETTINGS)).resolves.toBeUndefined();
    await expect(second.open({ ...SETTINGS, seed: '7' })).rejects.toThrow(
      `holds a simulator with seed 42; this process has seed 7: use another --store-prefix or the same settings`,
    );
    await expect(second.open({ ...SETTINGS, profile: 'live', limits: 'off' })).rejects.toThrow(
      /with profile spec and limits enforce; this process has profile live and limits off/,
    );
    await expect(second.open({ ...SETTINGS, fingerprint: 'other' })).rejects.toThrow(/world options [0-9a-f]{8}; this process has world options [0-9a-f]{8}/);
  });
});

describe('the decision journal in Redis', () => {
  it('lists entries in seq order whatever order they were appended in', async () => {
    const a = openStore();
    const b = openStore({ prefix: a.prefix });
    await a.open(SETTINGS);
    await b.open(SETTINGS);
    await Promise.all([3, 1, 4, 2].map((seq) => (seq % 2 ? a : b).journal.append(admittedEntry(seq, T0 + seq), 0)));
    expect((await b.journal.list()).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect((await a.journal.list())[0]).toEqual(admittedEntry(1, T0 + 1));
    expect(await a.journal.info()).toMatchObject({ complete: true, capacity: 5, size: 4, dropped: 0 });
  });

  it('lists every entry of a journal longer than one read, in seq order', async () => {
    const store = openStore();
    await store.open({ ...SETTINGS, journalCapacity: 3 * JOURNAL_PAGE });
    const count = 2 * JOURNAL_PAGE + 1;
    await Promise.all(Array.from({ length: count }, (_, i) => store.journal.append(admittedEntry(count - i, T0 + i), 0)));
    expect((await store.journal.list()).map((e) => e.seq)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  });

  it('keeps the newest entries up to its capacity and says it is incomplete since the oldest kept', async () => {
    const store = openStore();
    await store.open(SETTINGS);
    await store.reset('reset', T0);
    for (let seq = 1; seq <= 8; seq++) await store.journal.append(admittedEntry(seq, T0 + seq * 10), 0);
    expect((await store.journal.list()).map((e) => e.seq)).toEqual([4, 5, 6, 7, 8]);
    expect(await store.journal.info()).toEqual({ complete: false, since: T0 + 40, capacity: 5, size: 5, dropped: 3 });
  });

  it('drops its entries when cleared and is incomplete from then on', async () => {
    const store = openStore();
    await store.open(SETTINGS);
    await store.reset('reset', T0);
    await store.journal.append(admittedEntry(1, T0 + 1), 0);
    expect(await store.journal.clear(T0 + 50)).toEqual({ complete: false, since: T0 + 50, capacity: 5, size: 0, dropped: 0 });
    await store.journal.append(admittedEntry(2, T0 + 60), 0);
    expect(await store.journal.info()).toEqual({ complete: false, since: T0 + 50, capacity: 5, size: 1, dropped: 0 });
  });
});
