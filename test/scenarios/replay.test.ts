import { describe, expect, it } from 'vitest';
import { createSimulator, type JournalEntry, type ScenarioInput, type Simulator } from '../../src/index.js';
import { secretOf } from '../helpers/sim.js';
import { hit, requestFor, type Hit, type Target } from './support.js';

/** What a client observes of one answer. */
interface Observed {
  status: number;
  headers: Record<string, string>;
  body: string;
  delayMs: number | undefined;
  abort: boolean | undefined;
}

const observe = (h: Hit): Observed => ({ status: h.status, headers: h.headers, body: h.body, delayMs: h.delayMs, abort: h.abort });

const TARGETS: readonly Target[] = ['websites', 'query', 'compile', 'types', 'websites'];
const KEYS = ['key_acme_read', 'key_acme_all', 'key_globex_read'];

/**
 * A fixed sequence of 450 requests over 135 s of simulator time (the whole brownout timeline),
 * across routes and keys, with flaky-5xx running as well.
 */
async function runSequence(seed: number | string, scenarios: (string | ScenarioInput)[] = ['brownout', 'flaky-5xx']): Promise<Observed[]> {
  const sim = createSimulator({ seed, scenarios });
  const out: Observed[] = [];
  for (let i = 0; i < 450; i++) {
    sim.clock.advance(300);
    const keyId = KEYS[i % KEYS.length] as string;
    const target = TARGETS[i % TARGETS.length] as Target;
    out.push(observe(await hit(sim, requestFor(target, secretOf(sim, keyId), keyId))));
  }
  return out;
}

const failed = (o: Observed): boolean => o.status !== 200;

describe('seeded replay of scenarios', () => {
  it('gives identical answers (status, headers, body, delay, abort) for the same scenarios, seed and requests', async () => {
    const first = await runSequence(42);
    const second = await runSequence(42);
    expect(second).toEqual(first);
    // The sequence does exercise the faults.
    const statuses = new Set(first.map((o) => o.status));
    for (const status of [200, 429, 500, 503]) expect(statuses).toContain(status);
    expect(first.some((o) => o.delayMs !== undefined)).toBe(true);
  });

  it('gives a different pattern of failures for a different seed, at about the same rates', async () => {
    const a = (await runSequence(42)).map(failed);
    const b = (await runSequence(7)).map(failed);
    expect(b).not.toEqual(a);
    const differing = a.filter((x, i) => x !== b[i]).length;
    expect(differing).toBeGreaterThan(20);
    const rate = (xs: boolean[]): number => xs.filter(Boolean).length / xs.length;
    expect(Math.abs(rate(a) - rate(b))).toBeLessThan(0.08);
  });

  it('gives a key the same outcomes however other keys, anonymous callers and the control plane interleave', async () => {
    /** Key A's answers to 300 requests at fixed instants; `others(i)` sends other traffic before request i. */
    const runA = async (others: (sim: Simulator, i: number) => Promise<void>): Promise<Omit<Observed, 'headers' | 'body'>[]> => {
      const sim = createSimulator({ seed: 42, scenarios: ['flaky-5xx', 'brownout'] });
      const a = secretOf(sim, 'key_acme_read');
      const out: Omit<Observed, 'headers' | 'body'>[] = [];
      for (let i = 0; i < 300; i++) {
        sim.clock.advance(250);
        await others(sim, i);
        const h = await hit(sim, requestFor(i % 3 === 0 ? 'query' : 'websites', a));
        // The request id depends on the position in the whole sequence: compare the rest.
        out.push({ status: h.status, delayMs: h.delayMs, abort: h.abort });
        if (h.json && typeof h.json === 'object') {
          const { requestId, ...rest } = h.json as Record<string, unknown>;
          expect(requestId).toBe(h.headers['X-Request-ID']);
          (out[i] as Record<string, unknown>).body = rest;
        }
      }
      return out;
    };
    const alone = await runA(async () => undefined);
    const interleavedOne = await runA(async (sim, i) => {
      if (i % 2 === 0) await hit(sim, requestFor('websites', secretOf(sim, 'key_acme_all')));
      if (i % 5 === 1) await hit(sim, requestFor('types'));
    });
    const interleavedTwo = await runA(async (sim, i) => {
      for (let j = 0; j < i % 4; j++) await hit(sim, requestFor(j % 2 === 0 ? 'websites' : 'compile', secretOf(sim, 'key_globex_read'), 'key_globex_read'));
      await hit(sim, requestFor('health'));
      if (i % 7 === 0) await hit(sim, requestFor('websites', secretOf(sim, 'key_acme_all')));
    });
    expect(interleavedOne).toEqual(alone);
    expect(interleavedTwo).toEqual(alone);
    expect(alone.some((o) => o.status !== 200)).toBe(true);
  });

  it('starts the same draws after POST /__sim/reset as from a fresh simulator', async () => {
    const sim = createSimulator({ seed: 42, scenarios: ['flaky-5xx'] });
    const run = async (): Promise<Observed[]> => {
      const out: Observed[] = [];
      for (let i = 0; i < 200; i++) out.push(observe(await hit(sim, requestFor('websites', secretOf(sim, 'key_acme_read')))));
      return out;
    };
    const first = await run();
    const reset = await hit(sim, { method: 'POST', path: '/__sim/reset', query: {}, headers: {} });
    expect(reset.status).toBe(200);
    expect(await run()).toEqual(first);
  });
});

describe('the journal of faulted requests', () => {
  const SCRIPTED: ScenarioInput = {
    name: 'scripted',
    steps: [
      { name: 'slow websites', match: { route: '/v1/query/websites' }, effect: { type: 'latency', delay: { distribution: 'fixed', ms: 75 } } },
      { match: { route: '/v1/query', method: 'POST' }, effect: { type: 'error', status: 502, code: 'BAD_GATEWAY', message: 'Upstream down.' } },
      { name: 'drop compile', match: { route: '/v1/query/compile' }, effect: { type: 'reset' } },
    ],
  };

  it('names the scenario, step index, name and effect of every step that touched a request, with outcome scenario for refusals', async () => {
    const sim = createSimulator({ seed: 42, scenarios: [SCRIPTED] });
    const key = secretOf(sim, 'key_acme_read');
    const sent: [Target, Hit][] = [];
    for (const target of ['websites', 'query', 'compile', 'types'] as const) sent.push([target, await hit(sim, requestFor(target, key))]);
    expect(sent.map(([, h]) => [h.status, h.delayMs])).toEqual([
      [200, 75],
      [502, undefined],
      [0, undefined],
      [200, undefined],
    ]);

    const journal = await hit(sim, { method: 'GET', path: '/__sim/journal', query: {}, headers: {} });
    const entries = journal.json.entries as JournalEntry[];
    expect(entries.map((e) => ({ path: e.path, status: e.status, outcome: e.outcome, faults: e.faults, retryAfter: e.retryAfter }))).toEqual([
      { path: '/v1/query/websites', status: 200, outcome: 'admitted', faults: [{ scenario: 'scripted', step: 0, name: 'slow websites', effect: 'latency' }], retryAfter: null },
      { path: '/v1/query', status: 502, outcome: 'scenario', faults: [{ scenario: 'scripted', step: 1, name: null, effect: 'error' }], retryAfter: null },
      { path: '/v1/query/compile', status: 0, outcome: 'scenario', faults: [{ scenario: 'scripted', step: 2, name: 'drop compile', effect: 'reset' }], retryAfter: null },
      { path: '/v1/query/types', status: 200, outcome: 'admitted', faults: [], retryAfter: null },
    ]);
    expect(entries[0]?.requestId).toBe(sent[0]?.[1].headers['X-Request-ID']);
    expect(entries[1]?.requestId).toBe(sent[1]?.[1].headers['X-Request-ID']);

    const filtered = await hit(sim, { method: 'GET', path: '/__sim/journal', query: { outcome: 'scenario' }, headers: {} });
    expect((filtered.json.entries as JournalEntry[]).map((e) => e.status)).toEqual([502, 0]);
  });

  it('records, for a probabilistic scenario, exactly the requests that failed as scenario outcomes naming the step that decided', async () => {
    const sim = createSimulator({ seed: 42, scenarios: ['flaky-5xx'] });
    const key = secretOf(sim, 'key_acme_read');
    const hits: Hit[] = [];
    for (let i = 0; i < 600; i++) hits.push(await hit(sim, requestFor('websites', key)));
    const entries = sim.journal.list();
    expect(entries).toHaveLength(hits.length);
    const STEP_OF: Record<number, { step: number; name: string; effect: string }> = {
      500: { step: 0, name: 'internal errors', effect: 'error' },
      502: { step: 1, name: 'bad gateway', effect: 'error' },
      0: { step: 2, name: 'resets', effect: 'reset' },
    };
    entries.forEach((entry, i) => {
      const h = hits[i] as Hit;
      expect(entry.status).toBe(h.status);
      if (h.status === 200) {
        expect(entry.outcome).toBe('admitted');
        expect(entry.faults).toEqual([]);
      } else {
        expect(entry.outcome).toBe('scenario');
        // The first step that drew decided the answer; later steps that drew are listed after it.
        expect(entry.faults[0]).toEqual({ scenario: 'flaky-5xx', ...STEP_OF[h.status] });
      }
    });
    expect(entries.filter((e) => e.outcome === 'scenario').length).toBeGreaterThan(30);
  });
});
