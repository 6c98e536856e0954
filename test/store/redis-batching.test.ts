import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/index.js';
import { createSeededWorld } from '../../src/fixtures/world.js';
import type { SimRequest, SimResponse } from '../../src/sim/messages.js';
import { createScriptBatcher, MAX_BATCH_CHARS, MAX_BATCH_OPERATIONS, MAX_IN_FLIGHT, type BatchOutcome } from '../../src/store/redis-batch.js';
import { createRedisStore, type RedisStore } from '../../src/store/redis-store.js';
import { call, secretOf } from '../helpers/sim.js';
import { admittedEntry } from '../helpers/journal-entries.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

/**
 * The Redis store sends the operations of one event-loop turn (begins, window checks, leases,
 * journal entries) as one script call: requests that reach a step together share its round
 * trip, and every decision stays what it would be one call at a time.
 */
let redis: RedisServer;
const stores: RedisStore[] = [];
const clients: Redis[] = [];
let prefixes = 0;

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.allSettled([...stores.map((s) => s.close()), ...clients.map((c) => c.quit())]);
  await redis?.stop();
});

/** A plain client, to write what a store would not (a key of the wrong type). */
function rawClient(): Redis {
  const client = new Redis(redis.url);
  clients.push(client);
  return client;
}

/** One journal entry as the simulator writes it. */
const JOURNAL_ENTRY = admittedEntry(1, 1_750_000_000_000);

/** `count` simulators on one fresh prefix, ready, with their stores. */
async function sharing(count: number): Promise<{ sims: Simulator[]; stores: RedisStore[] }> {
  const prefix = `batching-${process.pid}-${++prefixes}`;
  const own = Array.from({ length: count }, () => createRedisStore({ url: redis.url, prefix }));
  stores.push(...own);
  const sims = own.map((store) => createSimulator({ seed: 42, createWorld: createSeededWorld, store }));
  for (const sim of sims) await sim.ready();
  return { sims, stores: own };
}

/** A read of one key (10 requests per 60 s: `key_acme_quota`), the slot kept until released. */
function websites(key: string): SimRequest {
  return { method: 'GET', path: '/v1/query/websites', query: {}, headers: { 'x-api-key': key } };
}

interface Entry {
  readonly seq: number;
  readonly outcome: string;
  readonly status: number;
  readonly keyId: string | null;
  readonly reason: { readonly code: string } | null;
  readonly inFlight: number | null;
  readonly checks: readonly { readonly order: number; readonly rule: string; readonly allowed: boolean }[];
}

describe('the Redis store batching the calls of one turn', () => {
  it('answers 32 requests sent at once in at most one round trip per step of a request, not one per call', async () => {
    const { sims, stores: [store] } = await sharing(1);
    const sim = sims[0]!;
    const key = secretOf(sim, 'key_acme_quota');
    const tripsBefore = store!.roundTrips;
    const operationsBefore = store!.operations;
    const answers = await Promise.all(Array.from({ length: 32 }, () => sim.handle(websites(key))));
    const trips = store!.roundTrips - tripsBefore;
    const operations = store!.operations - operationsBefore;
    expect(answers.map((a) => a.status).filter((s) => s === 200)).toHaveLength(10);
    // Every request: a begin with its slot (and the quota's check when taken), then a journal entry; 20 of them a release.
    expect(operations).toBe(32 * 2 + 20);
    // The steps of every request: begin with slot and quota check, then its journal entry with its release.
    expect(trips).toBe(2);
  });

  it('takes exactly 20 slots of 25 requests held at once over two processes, admits exactly 10 of them under a quota of 10, and the oracle judges every check right', async () => {
    const { sims } = await sharing(2);
    const key = secretOf(sims[0]!, 'key_acme_quota');
    const held: SimResponse[] = await Promise.all(Array.from({ length: 25 }, (_, i) => sims[i % 2]!.handle(websites(key), { holdSlot: true })));
    const outcomes = held.map((r) => r.status);
    expect(outcomes.filter((s) => s === 200)).toHaveLength(10);
    expect(outcomes.filter((s) => s === 429)).toHaveLength(15);
    for (const response of held) response.release?.();

    const journal = (await call(sims[1]!, 'GET', '/__sim/journal')).json.entries as Entry[];
    expect(journal.map((e) => e.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    const count = (outcome: string): number => journal.filter((e) => e.outcome === outcome).length;
    expect([count('admitted'), count('key_quota'), count('concurrency')]).toEqual([10, 10, 5]);
    for (const entry of journal) if (entry.outcome === 'concurrency') expect(entry.inFlight).toBe(20);
    const oracle = await call(sims[0]!, 'GET', '/__sim/journal/oracle');
    // 25 slot decisions and 20 quota checks.
    expect(oracle.json).toMatchObject({ checked: 45, overAdmissions: 0, underAdmissions: 0, accuracy: 100 });
    expect((await call(sims[0]!, 'GET', '/__sim/health')).json.inFlight).toBe(0);
  });

  it('answers an admitted query where it arrives in two round trips: begin with its slot and endpoint window, then its journal entry and release together, nothing logged for the other processes to run again', async () => {
    const { sims, stores: own } = await sharing(2);
    const [a, b] = sims as [Simulator, Simulator];
    const key = secretOf(a, 'key_acme_read');
    // A body text no other test sends: the first time, the body is decoded after the begin.
    const body = '{"parameters":["summary_metrics"],  "preset":"today", "limit":817}';
    const query = (): Promise<SimResponse> =>
      a.handle({ method: 'POST', path: '/v1/query', query: { website_id: 'web_acme_www' }, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });
    let before = own.map((store) => store.operations);
    expect((await query()).status).toBe(200);
    expect(own.map((store, i) => store.operations - before[i]!)).toEqual([4, 0]);
    // Again: the body is known good, so the endpoint window goes with the begin, slot and quota;
    // the journal entry and the release are asked in the same turn, so they share a call.
    before = own.map((store) => store.operations);
    const tripsBefore = own[0]!.roundTrips;
    expect((await query()).status).toBe(200);
    expect(own.map((store, i) => store.operations - before[i]!)).toEqual([3, 0]);
    expect(own[0]!.roundTrips - tripsBefore).toBe(2);
    const entries = (await call(b, 'GET', '/__sim/journal')).json.entries as Entry[];
    expect(entries.slice(-2).map((e) => e.checks.map((c) => c.rule))).toEqual([['endpoint_limit'], ['endpoint_limit']]);
    // The other process serves the same key and window, having run nothing of it.
    expect((await call(b, 'GET', '/__sim/journal/oracle')).json).toMatchObject({ overAdmissions: 0, underAdmissions: 0, accuracy: 100 });
  });

  it('checks the endpoint window with the begin only for a request sure to reach it: a malformed body is refused 400 without using the window, a refused quota leaves it untouched', async () => {
    const { sims, stores: [store] } = await sharing(1);
    const sim = sims[0]!;
    const key = secretOf(sim, 'key_acme_quota');
    const body = { parameters: ['summary_metrics'], preset: 'today' };
    const query = (raw: string) => sim.handle({ method: 'POST', path: '/v1/query', query: { website_id: 'web_acme_www' }, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: raw });
    expect((await query(JSON.stringify(body))).status).toBe(200);
    expect((await query('{"parameters": [')).status).toBe(400);
    // The body is known good now: begin with slot, quota and endpoint window, journal entry, release.
    const before = store!.operations;
    expect((await query(JSON.stringify(body))).status).toBe(200);
    expect(store!.operations - before).toBe(3);
    for (let i = 0; i < 7; i++) expect((await query(JSON.stringify(body))).status).toBe(200);
    expect((await query(JSON.stringify(body))).status).toBe(429);
    const entries = (await call(sim, 'GET', '/__sim/journal')).json.entries as Entry[];
    expect(entries.map((e) => e.checks.map((c) => `${c.rule}:${c.allowed}`).join(' '))).toEqual([
      'key_quota:true endpoint_limit:true',
      'key_quota:true',
      ...Array.from({ length: 8 }, () => 'key_quota:true endpoint_limit:true'),
      'key_quota:false',
    ]);
    const limits = (await call(sim, 'GET', '/__sim/limits')).json as { keys: { id: string; windows: { id: string; used: number }[] }[] };
    const windows = limits.keys.find((k) => k.id === 'key_acme_quota')!.windows;
    // Nine requests reached the endpoint window; the one the quota refused and the malformed one did not.
    expect(windows.find((w) => w.id === 'query:execute:apikey:key_acme_quota')!.used).toBe(9);
    // 11 slot decisions, 11 quota checks, 9 endpoint checks.
    expect((await call(sim, 'GET', '/__sim/journal/oracle')).json).toMatchObject({ checked: 31, overAdmissions: 0, underAdmissions: 0, accuracy: 100 });
  });

  it('answers an admitted request of a quota key after two round trips: its begin with the slot and the quota check, then its journal entry', async () => {
    const { sims, stores: [store] } = await sharing(1);
    const sim = sims[0]!;
    const key = secretOf(sim, 'key_acme_quota');
    const before = store!.roundTrips;
    const answer = await sim.handle(websites(key), { holdSlot: true });
    expect(answer.status).toBe(200);
    expect(answer.headers['X-RateLimit-Remaining']).toBe('9');
    expect(store!.roundTrips - before).toBe(2);
    answer.release?.();
    expect(await store!.leases.total()).toBe(0);
  });

  it('refuses with 401 a key another process revoked after this one last read the log, though this one still knew the key when the request began: no slot kept, no quota checked', async () => {
    const { sims, stores: own } = await sharing(2);
    const [a, b] = sims as [Simulator, Simulator];
    const key = secretOf(a, 'key_acme_quota');
    expect((await a.handle(websites(key))).status).toBe(200);
    expect((await call(b, 'POST', '/__sim/keys/key_acme_quota/revoke')).status).toBe(200);
    // a has not read the log since: its authentication still finds the key, its begin finds the log moved.
    const answer = await a.handle(websites(key), { holdSlot: true });
    expect(answer.status).toBe(401);
    answer.release?.();
    const entries = (await call(b, 'GET', '/__sim/journal')).json.entries as Entry[];
    const last = entries[entries.length - 1]!;
    expect(last).toMatchObject({ status: 401, keyId: null });
    expect(last.checks.filter((c) => (c as { rule?: string }).rule === 'key_quota')).toEqual([]);
    expect(await own[0]!.leases.total()).toBe(0);
    expect((await call(b, 'GET', '/__sim/journal/oracle')).json).toMatchObject({ overAdmissions: 0, underAdmissions: 0, accuracy: 100 });
  });

  it('sends the commands a stale process lacks once per call, not once per request of a burst that begins in it', async () => {
    const prefix = `batching-${process.pid}-${++prefixes}`;
    const client = rawClient();
    // The script replies process a reads, counted on its own connection.
    const counted = client as unknown as { sendCommand(command: { name: string }): Promise<unknown> };
    let replied = 0;
    const own = [createRedisStore({ url: redis.url, prefix, client }), createRedisStore({ url: redis.url, prefix })];
    stores.push(...own);
    const [a, b] = own.map((store) => createSimulator({ seed: 42, createWorld: createSeededWorld, store })) as [Simulator, Simulator];
    await a.ready();
    await b.ready();
    const send = counted.sendCommand.bind(client);
    counted.sendCommand = (command) => {
      const reply = send(command);
      if (command.name !== 'evalsha' && command.name !== 'eval') return reply;
      return reply.then((answer) => {
        if (typeof answer === 'string') replied += answer.length;
        return answer;
      });
    };
    const track = secretOf(b, 'key_acme_track');
    for (let i = 0; i < 200; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          call(b, 'POST', '/track', { key: track, body: { name: `e${i + j}`, websiteId: 'web_acme_store', anonymousId: `anon_${i + j}`, properties: { pad: 'x'.repeat(500) } } }),
        ),
      );
    }
    replied = 0;
    const key = secretOf(a, 'key_acme_read');
    const answers = await Promise.all(Array.from({ length: 16 }, () => a.handle({ method: 'GET', path: '/v1/query/websites', query: {}, headers: { 'x-api-key': key } })));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 16 }, () => 200));
    // 200 logged events of about 400 characters each, read once: not 16 times.
    expect(replied).toBeGreaterThan(200 * 300);
    expect(replied).toBeLessThan(200 * 800);
  });

  it('keeps answering when Redis forgets its scripts (a restart, SCRIPT FLUSH): the batch sends the script again, runs once', async () => {
    const { sims, stores: [store] } = await sharing(1);
    const sim = sims[0]!;
    const key = secretOf(sim, 'key_acme_read');
    expect((await sim.handle(websites(key))).status).toBe(200);
    const raw = rawClient();
    /** What Redis counted so far: scripts sent by their text (EVAL), and calls it answered NOSCRIPT. */
    const counts = async () => {
      const info = (await raw.info('commandstats')) + (await raw.info('errorstats'));
      const count = (pattern: RegExp): number => Number(pattern.exec(info)?.[1] ?? 0);
      return { evals: count(/^cmdstat_eval:calls=(\d+)/m), noScripts: count(/^errorstat_NOSCRIPT:count=(\d+)/m) };
    };
    await raw.script('FLUSH');
    const before = await counts();
    const tripsBefore = store!.roundTrips;
    const answers = await Promise.all(Array.from({ length: 4 }, () => sim.handle(websites(key))));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    // Redis answered NOSCRIPT and was sent the script's text again.
    const after = await counts();
    expect(after.noScripts).toBeGreaterThan(before.noScripts);
    expect(after.evals).toBeGreaterThan(before.evals);
    const entries = (await call(sim, 'GET', '/__sim/journal')).json.entries as Entry[];
    // Each request once in the journal, numbered once: none ran twice, none was lost.
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(store!.roundTrips - tripsBefore).toBeGreaterThan(0);
  });

  it('lets a read see every write asked for before it, answered or not', async () => {
    const { stores: [store] } = await sharing(1);
    const appended = store!.journal.append({ ...JOURNAL_ENTRY, seq: 7 }, 0);
    const logged = store!.append('{"k":"noop"}');
    const [listed, read] = await Promise.all([store!.journal.list(), store!.read(0, 10)]);
    expect(listed.map((e) => e.seq)).toContain(7);
    expect(read.map((c) => c.body)).toContain('{"k":"noop"}');
    await Promise.all([appended, logged]);
  });

  it('carries texts of any characters in one call exactly as written: multi-byte, colons, digits, empty, a window id of its own', async () => {
    const { stores: [store] } = await sharing(1);
    const bodies = ['{"k":"é 日本 🙂"}', '12:34:', '', '3:abc', 'ü'.repeat(1000), 'quotes " and \\ and \n', '\\ud800 as text'];
    const tripsBefore = store!.roundTrips;
    const [positions, decisions, journaled] = await Promise.all([
      Promise.all(bodies.map((body) => store!.append(body))),
      Promise.all(['fenêtre:1', '2:x'].map((id) => store!.windows.consume(id, 1_750_000_000_000, 1, 1000))),
      store!.journal.append({ ...JOURNAL_ENTRY, seq: 9, path: '/v1/query/çà:1' }, 0),
    ]);
    expect(store!.roundTrips - tripsBefore).toBe(1);
    expect(decisions.map((d) => d.allowed)).toEqual([true, true]);
    expect(journaled).toBeUndefined();
    const read = await store!.read(positions[0]! - 1, bodies.length);
    expect(read.map((c) => c.body)).toEqual(bodies);
    expect((await store!.journal.list()).find((e) => e.seq === 9)?.path).toBe('/v1/query/çà:1');
    expect((await store!.windows.peek('fenêtre:1', 1_750_000_000_000, 1, 1000)).held).toBe(1);
  });

  it('carries a lone UTF-16 surrogate as U+FFFD, as UTF-8 on the wire does, without failing the call it goes in', async () => {
    const { stores: [store] } = await sharing(1);
    const [lone, after] = await Promise.all([store!.append('a\ud800b'), store!.append('next')]);
    expect((await store!.read(lone - 1, 2)).map((c) => c.body)).toEqual(['a\ufffdb', 'next']);
    expect(after).toBe(lone + 1);
  });

  it('fails only the operation Redis refuses, not the others sent in the same call', async () => {
    const { stores: [store] } = await sharing(1);
    await rawClient().set(`{${store!.prefix}}:win:broken`, 'not a window');
    const tripsBefore = store!.roundTrips;
    const [broken, fine] = await Promise.allSettled([store!.windows.consume('broken', 1_750_000_000_000, 1, 1000), store!.windows.consume('fine', 1_750_000_000_000, 1, 1000)]);
    expect(store!.roundTrips - tripsBefore).toBe(1);
    expect(broken.status === 'rejected' && String(broken.reason)).toMatch(/answered: .*WRONGTYPE/);
    expect(fine).toMatchObject({ status: 'fulfilled', value: { allowed: true } });
  });

  it('numbers the window checks of requests sent together in the order of their journal positions, and refuses the ones past the quota in that order', async () => {
    const { sims } = await sharing(1);
    const sim = sims[0]!;
    const key = secretOf(sim, 'key_acme_quota');
    const held = await Promise.all(Array.from({ length: 15 }, () => sim.handle(websites(key), { holdSlot: true })));
    for (const response of held) response.release?.();
    expect(held.map((r) => r.status)).toEqual([...Array<number>(10).fill(200), ...Array<number>(5).fill(429)]);
    const journal = (await call(sim, 'GET', '/__sim/journal')).json.entries as Entry[];
    const orders = journal.map((e) => e.checks[0]!.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    expect(journal.map((e) => e.outcome)).toEqual([...Array<string>(10).fill('admitted'), ...Array<string>(5).fill('key_quota')]);
  });

  it('sends a burst of more operations than one call carries as several calls in a row, in call order', async () => {
    const { stores: [store] } = await sharing(1);
    const tripsBefore = store!.roundTrips;
    const counts = await Promise.all(Array.from({ length: MAX_BATCH_OPERATIONS + 10 }, () => store!.ordinal('burst')));
    expect(counts).toEqual(Array.from({ length: MAX_BATCH_OPERATIONS + 10 }, (_, i) => i + 1));
    expect(store!.roundTrips - tripsBefore).toBe(2);
  });

  it('sends large logged commands of one turn in calls of about a megabyte at most, each in its log place', async () => {
    const { stores: [store] } = await sharing(1);
    // Three commands of 0.6 MB (a logged request carries its body, up to 1 MB): no two fit in one call.
    const bodies = ['a', 'b', 'c'].map((letter) => letter.repeat(Math.ceil(MAX_BATCH_CHARS * 0.6)));
    const tripsBefore = store!.roundTrips;
    const positions = await Promise.all(bodies.map((body) => store!.append(body)));
    expect(store!.roundTrips - tripsBefore).toBe(3);
    expect(positions).toEqual([positions[0]!, positions[0]! + 1, positions[0]! + 2]);
    const read = await store!.read(positions[0]! - 1, 3);
    expect(read.map((c) => c.body[0])).toEqual(['a', 'b', 'c']);
  });

  it('fails the operations of a batch whose call throws instead of rejecting, and still sends the next batch', async () => {
    let calls = 0;
    const batcher = createScriptBatcher({
      send(argv): Promise<readonly BatchOutcome[]> {
        calls++;
        if (calls === 1) throw new Error('the client threw');
        return Promise.resolve(Array.from({ length: Number(argv[0]) }, (): BatchOutcome => [1, 'done']));
      },
      failed: (said) => new Error(said),
    });
    const first = await Promise.allSettled([batcher.run('ordinal', ['a']), batcher.run('ordinal', ['b'])]);
    expect(first.map((r) => r.status === 'rejected' && String(r.reason))).toEqual(['Error: the client threw', 'Error: the client threw']);
    await expect(batcher.run('ordinal', ['c'])).resolves.toBe('done');
  });

  it('sends the begins and the journal entries of one turn as one operation each, where the first of them stood, and answers their callers there, in call order', async () => {
    const sent: (readonly string[])[] = [];
    const batcher = createScriptBatcher({
      send: (argv) => {
        sent.push(argv);
        // What the grouped operations and the ordinal return: begins from index 7 and journal position 3, log at 5.
        return Promise.resolve([
          [1, 'ord'],
          [1, [7, 3, 5]],
          [1, 0],
          [1, 'ord2'],
        ] satisfies BatchOutcome[]);
      },
      failed: (said) => new Error(said),
    });
    const settled: string[] = [];
    const track = <T>(name: string, promise: Promise<T>): Promise<T> => promise.then((value) => (settled.push(name), value));
    const calls = [
      track('ordinal a', batcher.run('ordinal', ['a'])),
      track('begin 1', batcher.run('begin', ['1', '4', '256'])),
      track('journal 1', batcher.run('journal', ['[1]', '100', '1000'])),
      track('begin 2', batcher.run('begin', ['0', '5', '256'])),
      track('ordinal b', batcher.run('ordinal', ['b'])),
      track('journal 2', batcher.run('journal', ['[2]', '100', '1001'])),
      track('begin 3', batcher.run('begin', ['1', '5', '256'])),
    ];
    const answers = await Promise.all(calls);
    expect(sent).toEqual([['4', 'ordinal', 'a', 'begins', '5', '4', '256', '1', '0', '1', 'journals', '5', '100', '[1]', '1000', '[2]', '1001', 'ordinal', 'b']]);
    // Each begin numbered as if run alone in a row; the one control request takes no journal position.
    expect(answers.slice(1, 4)).toEqual([[7, 3, 5], 0, [8, 0, 5]]);
    expect(answers[6]).toEqual([9, 4, 5]);
    expect(settled).toEqual(['ordinal a', 'begin 1', 'begin 2', 'begin 3', 'journal 1', 'journal 2', 'ordinal b']);
    expect(batcher.operations).toBe(7);
  });

  it('sends a lone begin as a group of one, answered as a begin alone', async () => {
    const sent: (readonly string[])[] = [];
    const batcher = createScriptBatcher({
      send: (argv) => {
        sent.push(argv);
        return Promise.resolve([[1, [12, 0, 7, '8-1', '{"k":"noop"}']]] satisfies BatchOutcome[]);
      },
      failed: (said) => new Error(said),
    });
    expect(await batcher.run('begin', ['0', '7', '256'])).toEqual([12, 0, 7, '8-1', '{"k":"noop"}']);
    expect(sent).toEqual([['1', 'begins', '3', '7', '256', '0']]);
    await expect(batcher.run('begins', ['7', '256', '0'])).rejects.toThrow(/operation of grouped calls/);
  });

  it('fails every call of a grouped operation Redis refuses, and only those', async () => {
    const batcher = createScriptBatcher({
      send: () => Promise.resolve([[0, 'WRONGTYPE journal'], [1, 'ord']] satisfies BatchOutcome[]),
      failed: (said) => new Error(`the store answered: ${said}`),
    });
    const results = await Promise.allSettled([batcher.run('journal', ['[1]', '100', '1']), batcher.run('journal', ['[2]', '100', '2']), batcher.run('ordinal', ['x'])]);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : r.value))).toEqual(['Error: the store answered: WRONGTYPE journal', 'Error: the store answered: WRONGTYPE journal', 'ord']);
  });

  it('numbers 16 requests sent at once with consecutive journal positions and request ids, none twice, over two processes sharing the store', async () => {
    const { sims, stores: own } = await sharing(2);
    const key = secretOf(sims[0]!, 'key_acme_read');
    const before = own.map((store) => store.roundTrips);
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => sims[i % 2]!.handle(websites(key))));
    expect(answers.map((a) => a.status)).toEqual(Array<number>(16).fill(200));
    const ids = answers.map((a) => a.headers['X-Request-ID']);
    expect(new Set(ids).size).toBe(16);
    // Each process numbered its 8 requests in a few round trips (a begin each, grouped), not one per request.
    own.forEach((store, i) => expect(store.roundTrips - before[i]!).toBeLessThanOrEqual(5));
    const journal = (await call(sims[1]!, 'GET', '/__sim/journal')).json.entries as (Entry & { requestId: string })[];
    expect(journal.map((e) => e.seq)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(new Set(journal.map((e) => e.requestId))).toEqual(new Set(ids));
  });

  it('answers a request whose quota check Redis refuses 503 with the reason in the journal, gives its slot back, and admits the other request of the same call', async () => {
    const { sims, stores: [store] } = await sharing(1);
    const sim = sims[0]!;
    // The quota window of key_acme_quota holds a value of the wrong type: its check fails in Redis.
    await rawClient().set(`{${store!.prefix}}:win:api-key:key_acme_quota`, 'not a window');
    const tripsBefore = store!.roundTrips;
    const [broken, fine] = await Promise.all([sim.handle(websites(secretOf(sim, 'key_acme_quota'))), sim.handle(websites(secretOf(sim, 'key_acme_read')))]);
    expect(broken.status).toBe(503);
    expect(broken.headers['Retry-After']).toBe('5');
    expect(fine.status).toBe(200);
    // begin with the slot and the quota, then the journal entries with the release: the two requests shared each call.
    expect(store!.roundTrips - tripsBefore).toBe(2);
    const journal = (await call(sim, 'GET', '/__sim/journal')).json.entries as Entry[];
    const refused = journal.find((e) => e.keyId === 'key_acme_quota');
    expect(refused).toMatchObject({ outcome: 'degraded', status: 503, reason: { code: 'SERVICE_UNAVAILABLE' } });
    // The slot taken with the failed check was given back in the same step: none is left held.
    expect((await call(sim, 'GET', '/__sim/health')).json.inFlight).toBe(0);
  });

  it('tells each call of a batch that failed whole that Redis may have run it unheard, and no call whose operation Redis answered', async () => {
    let fail = true;
    const batcher = createScriptBatcher({
      send: (argv) => (fail ? Promise.reject(new Error('Command timed out')) : Promise.resolve(Array.from({ length: Number(argv[0]) }, (_, i): BatchOutcome => (i === 0 ? [0, 'WRONGTYPE'] : [1, 'ok'])))),
      failed: (said) => new Error(said),
    });
    const unheard: string[] = [];
    const lost = ['a', 'b'].map((name) => batcher.run('ordinal', [name], undefined, () => unheard.push(name)));
    await expect(Promise.all(lost)).rejects.toThrow('Command timed out');
    expect(unheard).toEqual(['a', 'b']);
    fail = false;
    const answered = ['c', 'd'].map((name) => batcher.run('ordinal', [name], undefined, () => unheard.push(name)));
    await expect(answered[0]).rejects.toThrow('WRONGTYPE');
    expect(await answered[1]).toBe('ok');
    expect(unheard).toEqual(['a', 'b']);
  });

  it('sends partial calls while fewer than MAX_IN_FLIGHT are in flight, the full calls of a burst at once behind them, and keeps only a partial call waiting while MAX_IN_FLIGHT are in flight', async () => {
    const sent: { readonly count: number; resolve(outcomes: readonly BatchOutcome[]): void }[] = [];
    const batcher = createScriptBatcher({
      send: (argv) => new Promise((resolve) => sent.push({ count: Number(argv[0]), resolve })),
      failed: (said) => new Error(said),
      maxOperations: 4,
    });
    const endOfTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    const answer = (i: number): void => sent[i]!.resolve(Array.from({ length: sent[i]!.count }, (_, j): BatchOutcome => [1, `${i}.${j}`]));
    const counts = (): number[] => sent.map((call) => call.count);

    // One call a turn, each sent at the end of its turn while fewer than MAX_IN_FLIGHT are out.
    const singles: Promise<unknown>[] = [];
    for (let i = 0; i < MAX_IN_FLIGHT; i++) {
      singles.push(batcher.run('ordinal', [`single ${i}`]));
      await endOfTurn();
      expect(counts()).toEqual(Array.from({ length: i + 1 }, () => 1));
    }
    const ones = Array.from({ length: MAX_IN_FLIGHT }, () => 1);
    // Nine more while MAX_IN_FLIGHT calls are in flight: two full calls go now, the ninth waits.
    const burst = Array.from({ length: 9 }, (_, i) => batcher.run('ordinal', [String(i)]));
    await endOfTurn();
    expect(counts()).toEqual([...ones, 4, 4]);
    // Answered down to exactly MAX_IN_FLIGHT in flight, the ninth still waits.
    answer(0);
    answer(1);
    expect(await singles[1]).toBe('1.0');
    await endOfTurn();
    expect(counts()).toEqual([...ones, 4, 4]);
    // It goes as soon as fewer than MAX_IN_FLIGHT calls are in flight.
    answer(2);
    expect(await singles[2]).toBe('2.0');
    await endOfTurn();
    expect(counts()).toEqual([...ones, 4, 4, 1]);
    for (let i = 3; i <= MAX_IN_FLIGHT; i++) answer(i);
    expect(await Promise.all(singles)).toEqual(Array.from({ length: MAX_IN_FLIGHT }, (_, i) => `${i}.0`));
    await Promise.all(burst.slice(0, 4));
    answer(MAX_IN_FLIGHT + 1);
    answer(MAX_IN_FLIGHT + 2);
    const [a, b, c] = [MAX_IN_FLIGHT, MAX_IN_FLIGHT + 1, MAX_IN_FLIGHT + 2];
    expect(await Promise.all(burst)).toEqual([`${a}.0`, `${a}.1`, `${a}.2`, `${a}.3`, `${b}.0`, `${b}.1`, `${b}.2`, `${b}.3`, `${c}.0`]);
  });
});
