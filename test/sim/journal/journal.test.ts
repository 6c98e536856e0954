import { describe, expect, it } from 'vitest';
import { createJournal, type JournalEntry, type WindowCheck } from '../../../src/sim/journal/journal.js';

// The journal keeps its entries as columns (src/sim/journal/entry-columns.ts) and makes them as
// objects again when listed: these tests expect every listing to give back exactly what was
// recorded, through growth, wrapping and out-of-order finishes.

const START = 1_748_865_600_000;

/** A varied entry: every nullable field null in some, optional check instants in others. */
function entryOf(seq: number): JournalEntry {
  const key = `key_${seq % 7}`;
  const checks: WindowCheck[] = [];
  for (let c = 0; c < seq % 4; c++) {
    checks.push({ rule: c === 0 ? 'key_quota' : 'endpoint_limit', id: `w:${key}:${c}`, limit: 100 + c, windowMs: 60_000, allowed: seq % 5 !== 0, order: seq * 4 + c, ...(seq % 3 === 0 ? { at: START + seq + 1 } : {}) });
  }
  const refused = seq % 5 === 0 && checks.length > 0;
  return {
    seq,
    at: START + seq * 10,
    requestId: `req_${String(seq).padStart(16, '0')}`,
    method: seq % 2 === 0 ? 'POST' : 'GET',
    path: seq % 6 === 0 ? `/v1/query?n=${seq}` : '/v1/query',
    route: seq % 11 === 0 ? null : '/v1/query',
    identity: seq % 9 === 0 ? `anon:10.0.0.${seq % 256}` : `apikey:${key}`,
    keyId: seq % 9 === 0 ? null : key,
    outcome: refused ? 'key_quota' : 'admitted',
    status: refused ? 429 : 200,
    checks,
    inFlight: seq % 8 === 0 ? null : seq % 20,
    inFlightCap: seq % 8 === 0 ? null : 20,
    faults: seq % 13 === 0 ? [{ scenario: 'maintenance', step: 1, name: null, effect: 'outage' }] : [],
    fingerprint: (seq * 2_654_435_761).toString(16).padStart(16, '0').slice(-16),
    retryAfter: refused ? 1 + (seq % 60) : null,
    warnings: seq % 10 === 0 ? [`unknown field "x${seq}"`] : [],
    reason: refused ? { code: 'RATE_LIMITED', message: 'API key rate limit exceeded', field: null, cause: seq % 2 === 0 ? null : 'quota of 100 per 60 s', fix: `Retry after ${seq % 3} s` } : null,
  };
}

describe('the decision journal', () => {
  it('lists every recorded entry as it was recorded, field for field', () => {
    const journal = createJournal(START, 5_000);
    const recorded = Array.from({ length: 3_000 }, (_, i) => entryOf(i + 1));
    for (const entry of recorded) journal.record(entry);
    expect(journal.list()).toEqual(recorded);
    expect(JSON.stringify(journal.list())).toBe(JSON.stringify(recorded));
    expect(journal.info()).toEqual({ complete: true, since: START, capacity: 5_000, size: 3_000, dropped: 0 });
  });

  it('keeps the newest entries once full, with their own checks, and says what it dropped', () => {
    const journal = createJournal(START, 1_500);
    const recorded = Array.from({ length: 4_321 }, (_, i) => entryOf(i + 1));
    for (const entry of recorded) journal.record(entry);
    const kept = recorded.slice(-1_500);
    expect(JSON.stringify(journal.list())).toBe(JSON.stringify(kept));
    expect(journal.info()).toEqual({ complete: false, since: kept[0]?.at, capacity: 1_500, size: 1_500, dropped: 2_821 });
  });

  it('lists requests that finished out of order in the order they arrived', () => {
    const journal = createJournal(START, 2_000);
    const recorded = Array.from({ length: 1_200 }, (_, i) => entryOf(i + 1));
    // Each pair finishes second-first, as a slow request overtaken by a fast one.
    for (let i = 0; i < recorded.length; i += 2) {
      journal.record(recorded[i + 1] as JournalEntry);
      journal.record(recorded[i] as JournalEntry);
    }
    expect(journal.list().map((e) => e.seq)).toEqual(recorded.map((e) => e.seq));
    expect(JSON.stringify(journal.list())).toBe(JSON.stringify(recorded));
  });

  it('answers a filtered listing with the newest matching entries, at most the limit', () => {
    const journal = createJournal(START, 10_000);
    const recorded = Array.from({ length: 2_000 }, (_, i) => entryOf(i + 1));
    for (const entry of recorded) journal.record(entry);
    const refusals = recorded.filter((e) => e.outcome === 'key_quota');
    expect(journal.list({ outcome: 'key_quota', limit: 5 })).toEqual(refusals.slice(-5));
    expect(journal.list({ identity: 'apikey:key_3', since: START + 5_000, until: START + 9_000 })).toEqual(
      recorded.filter((e) => e.identity === 'apikey:key_3' && e.at >= START + 5_000 && e.at <= START + 9_000),
    );
    expect(journal.list({ route: '/v1/query?n=60' })).toEqual([recorded[59]]);
    expect(journal.list({ limit: 0 })).toEqual([]);
  });

  it('starts empty after clear and restart, and records again from there', () => {
    const journal = createJournal(START, 100);
    for (let i = 1; i <= 250; i++) journal.record(entryOf(i));
    journal.clear(START + 1);
    expect(journal.list()).toEqual([]);
    expect(journal.info()).toEqual({ complete: false, since: START + 1, capacity: 100, size: 0, dropped: 0 });
    journal.record(entryOf(7));
    expect(journal.list()).toEqual([entryOf(7)]);
    journal.restart(START + 2);
    expect(journal.reserve()).toBe(1);
    expect(journal.info()).toEqual({ complete: true, since: START + 2, capacity: 100, size: 0, dropped: 0 });
  });
});
