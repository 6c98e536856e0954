import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replayJournal } from '../../../src/index.js';
import type { JournalEntry } from '../../../src/sim/journal/journal.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

const KEYS = ['key_acme_quota', 'key_acme_quota_default', 'key_acme_read', 'key_globex_read', 'key_acme_store_only'];
const ROUTES = [
  { method: 'POST', path: '/v1/query', body: { parameters: ['summary_metrics'], preset: 'today' } },
  { method: 'POST', path: '/v1/query/compile', body: { projectId: 'web_acme_www', type: 'top_pages', from: '2025-05-01', to: '2025-05-02' } },
  { method: 'GET', path: '/v1/query/websites' },
];

const arrival = fc.record({
  waitMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 30_000 })),
  caller: fc.integer({ min: 0, max: KEYS.length + 2 }),
  route: fc.integer({ min: 0, max: ROUTES.length - 1 }),
});

describe('the admission oracle', () => {
  it('agrees with every decision over thousands of random arrivals on the virtual clock', async () => {
    let total = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(arrival, { minLength: 200, maxLength: 600 }), async (arrivals) => {
        const sim = freshSimulator();
        const secrets = KEYS.map((id) => secretOf(sim, id));
        for (const a of arrivals) {
          sim.clock.advance(a.waitMs);
          const route = ROUTES[a.route]!;
          const key = secrets[a.caller];
          await call(sim, route.method, route.path, {
            query: { website_id: 'web_acme_www' },
            ...(route.body ? { body: route.body } : {}),
            ...(key ? { key } : { headers: { 'x-forwarded-for': `198.51.100.${a.caller}` } }),
          });
        }
        const info = sim.journal.info();
        const report = replayJournal(sim.journal.list(), info);
        total += report.checked;
        expect(report.disagreements).toEqual([]);
        expect(report.accuracy).toBe(100);
        expect(report.skipped).toBe(0);
      }),
      { numRuns: 15, seed: 20251122 },
    );
    expect(total).toBeGreaterThan(3000);
  });

  it('exercises refusals of every window rule in those runs', async () => {
    const sim = freshSimulator();
    const quota = secretOf(sim, 'key_acme_quota');
    const read = secretOf(sim, 'key_acme_read');
    for (let i = 0; i < 12; i++) await call(sim, 'GET', '/v1/query/websites', { key: quota });
    for (let i = 0; i < 122; i++) await call(sim, 'POST', '/v1/query', { key: read, query: { website_id: 'web_acme_www' }, body: ROUTES[0]!.body });
    const outcomes = new Set(sim.journal.list().map((e) => e.outcome));
    expect(outcomes).toEqual(new Set(['admitted', 'key_quota', 'endpoint_limit']));
    expect(replayJournal(sim.journal.list()).disagreements).toEqual([]);
  });

  it('reports an over-admission when a journal shows a request let through past the limit', async () => {
    const sim = freshSimulator();
    const quota = secretOf(sim, 'key_acme_quota');
    for (let i = 0; i < 11; i++) await call(sim, 'GET', '/v1/query/websites', { key: quota });
    const tampered: JournalEntry[] = sim.journal.list().map((e) =>
      e.outcome === 'key_quota' ? { ...e, outcome: 'admitted', status: 200, checks: e.checks.map((c) => ({ ...c, allowed: true })) } : e,
    );
    const report = replayJournal(tampered);
    expect(report.overAdmissions).toBe(1);
    expect(report.disagreements[0]).toMatchObject({ rule: 'key_quota', recorded: 'allowed', expected: 'refused', kind: 'over-admission', seq: 11 });
    expect(report.accuracy).toBeLessThan(100);
  });

  it('reports an under-admission when a journal shows a refusal the rule would have admitted', async () => {
    const sim = freshSimulator();
    const quota = secretOf(sim, 'key_acme_quota');
    for (let i = 0; i < 3; i++) await call(sim, 'GET', '/v1/query/websites', { key: quota });
    const tampered = sim.journal.list().map((e, i) => (i === 1 ? { ...e, checks: e.checks.map((c) => ({ ...c, allowed: false })) } : e));
    const report = replayJournal(tampered);
    expect(report.underAdmissions).toBe(1);
    expect(report.overAdmissions).toBe(0);
  });

  it('does not judge windows that began before a cleared journal', async () => {
    const sim = freshSimulator();
    const quota = secretOf(sim, 'key_acme_quota');
    for (let i = 0; i < 10; i++) await call(sim, 'GET', '/v1/query/websites', { key: quota });
    await call(sim, 'DELETE', '/__sim/journal');
    sim.clock.advance(1000);
    await call(sim, 'GET', '/v1/query/websites', { key: quota });
    const report = replayJournal(sim.journal.list(), sim.journal.info());
    expect(report.skipped).toBe(1);
    expect(report.disagreements).toEqual([]);
    const oracle = await call(sim, 'GET', '/__sim/journal/oracle');
    expect(oracle.json).toMatchObject({ skipped: 1, accuracy: 100, overAdmissions: 0, underAdmissions: 0 });
  });
});
