import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { admitSlidingLog, expectedForArrivals, LIMITS, quantile, summarizeJournal, type Entry } from '../../load/expectations.js';
import { CONCURRENCY_CAP, DEFAULT_KEY_QUOTA, ENDPOINT_LIMITS, INGEST_LIMIT } from '../../src/sim/admission/rules.js';
import { consumeSlot, createSlidingLog } from '../../src/sim/admission/sliding-log.js';
import { replayJournal } from '../../src/sim/admission/oracle.js';
import type { JournalEntry } from '../../src/sim/journal/journal.js';

describe('load/expectations.js', () => {
  it('has the limits of rules.ts', () => {
    expect(LIMITS.endpoint).toEqual(ENDPOINT_LIMITS);
    expect(LIMITS.keyQuotaDefault).toEqual({ limit: DEFAULT_KEY_QUOTA.limit, windowMs: DEFAULT_KEY_QUOTA.windowSeconds * 1000 });
    expect(LIMITS.concurrency).toBe(CONCURRENCY_CAP);
    expect(LIMITS.ingest).toEqual(INGEST_LIMIT);
  });

  it('an entry at t holds its slot during [t, t + window)', () => {
    expect(admitSlidingLog([0, 0, 999, 1000, 1000], 2, 1000).decisions).toEqual([true, true, false, true, true]);
    expect(expectedForArrivals([{ rule: 'endpoint_limit', id: 'a', limit: 120, windowMs: 60_000, times: Array.from({ length: 300 }, (_, i) => i * 100) }])).toEqual({
      endpoint_limit: { offered: 300, admitted: 120, refused: 180 },
    });
  });

  it('admits exactly what sliding-log.ts admits', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 200 }), fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 300 }), (gaps, limit, windowMs) => {
        let t = 0;
        const times = gaps.map((g) => (t += g));
        const log = createSlidingLog();
        const core = times.map((at) => consumeSlot(log, at, limit, windowMs).allowed);
        expect(admitSlidingLog(times, limit, windowMs).decisions).toEqual(core);
      }),
    );
  });

  it('judges a journal as replayJournal does', () => {
    const entry = (seq: number, at: number, allowed: boolean, inFlight = 0): JournalEntry => ({
      seq,
      at,
      requestId: `req_${seq}`,
      method: 'POST',
      path: '/v1/query',
      route: '/v1/query',
      identity: 'apikey:k',
      keyId: 'k',
      outcome: allowed ? 'admitted' : 'endpoint_limit',
      status: allowed ? 200 : 429,
      checks: [{ rule: 'endpoint_limit', id: 'query:execute:apikey:k', limit: 2, windowMs: 1000, allowed, order: seq }],
      inFlight,
      inFlightCap: 20,
      faults: [],
      fingerprint: 'f',
      retryAfter: allowed ? null : 1,
      warnings: [],
      reason: null,
    });
    // The third is over-admitted, the fifth under-admitted (a slot had freed at 1000).
    const journal = [entry(1, 0, true), entry(2, 10, true), entry(3, 20, true), entry(4, 500, false), entry(5, 1000, false, 25)];
    const oracle = replayJournal(journal);
    const summary = summarizeJournal(journal as unknown as Entry[]);
    expect(summary).toMatchObject({
      offered: 5,
      admitted: 3,
      checked: oracle.checked,
      overAdmissions: oracle.overAdmissions,
      underAdmissions: oracle.underAdmissions,
      accuracy: oracle.accuracy,
    });
    // Over: the third request (a full window), and the fifth passing the gate with 25 in flight.
    expect(summary.overAdmissions).toBe(2);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2);
  });
});
