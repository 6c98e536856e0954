import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/sim/journal/journal.js';
import { decodeJournalEntry, decodeJournalPage, encodeJournalEntry, journalEntryAt } from '../../src/store/redis-journal-codec.js';
import { admittedEntry } from '../helpers/journal-entries.js';

/** A quota key's query refused by its quota, as the simulator journals it on a shared store. */
const refused: JournalEntry = {
  ...admittedEntry(3000, 1_795_963_388_014),
  requestId: 'req_jX6weexT4yggSoIg',
  method: 'POST',
  path: '/v1/query',
  route: '/v1/query',
  identity: 'apikey:key_acme_quota_default',
  keyId: 'key_acme_quota_default',
  outcome: 'key_quota',
  status: 429,
  checks: [{ rule: 'key_quota', id: 'api-key:key_acme_quota_default', limit: 300, windowMs: 60_000, allowed: false, order: 3300, at: 1_795_963_388_013 }],
  retryAfter: 60,
  reason: { code: 'RATE_LIMITED', message: 'API key rate limit exceeded', field: null, cause: null, fix: null },
};

/** Byte-identical as the journal's answer writes it: same fields, same order, same values. */
const same = (decoded: JournalEntry, entry: JournalEntry): void => expect(JSON.stringify(decoded)).toBe(JSON.stringify(entry));

const text = fc.string({ maxLength: 12 });
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
const entries: fc.Arbitrary<JournalEntry> = fc
  .record({
    seq: fc.nat(),
    at: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0 }),
    requestId: text,
    method: fc.constantFrom('GET', 'POST'),
    path: fc.constantFrom('/v1/query', '/v1/x', ''),
    route: nullable(fc.constantFrom('/v1/query', '/v1/x', '')),
    identity: fc.oneof(text, text.map((id) => `apikey:${id}`), fc.constant('apikey:')),
    keyId: nullable(text),
    sameKey: fc.boolean(),
    outcome: fc.constantFrom('admitted', 'key_quota', 'concurrency', 'scenario', 'degraded') as fc.Arbitrary<JournalEntry['outcome']>,
    status: fc.integer({ min: 100, max: 599 }),
    checks: fc.array(
      fc.record(
        {
          rule: fc.constantFrom('key_quota', 'endpoint_limit', 'ingest_limit') as fc.Arbitrary<'key_quota'>,
          id: fc.oneof(text, text.map((t) => `api-key:${t}`)),
          withKey: fc.boolean(),
          limit: fc.nat(),
          windowMs: fc.nat(),
          allowed: fc.boolean(),
          order: fc.nat(),
          at: fc.double({ noNaN: true, noDefaultInfinity: true }),
        },
        { requiredKeys: ['rule', 'id', 'withKey', 'limit', 'windowMs', 'allowed', 'order'] },
      ),
      { maxLength: 3 },
    ),
    inFlight: nullable(fc.nat()),
    inFlightCap: nullable(fc.nat()),
    faults: fc.array(fc.record({ scenario: text, step: fc.nat(), name: nullable(text), effect: fc.constantFrom('rate_limit', 'latency') as fc.Arbitrary<'latency'> }), { maxLength: 2 }),
    fingerprint: text,
    retryAfter: nullable(fc.nat()),
    warnings: fc.array(text, { maxLength: 2 }),
    reason: nullable(fc.record({ code: text, message: text, field: nullable(text), cause: nullable(text), fix: nullable(text) })),
  })
  .map(({ sameKey, checks, ...e }) => {
    const keyId = sameKey && e.identity.startsWith('apikey:') ? e.identity.slice('apikey:'.length) : e.keyId;
    return {
      seq: e.seq,
      at: e.at,
      requestId: e.requestId,
      method: e.method,
      path: e.path,
      route: e.route,
      identity: e.identity,
      keyId,
      outcome: e.outcome,
      status: e.status,
      checks: checks.map(({ withKey, id, at, ...c }) => {
        const check = { rule: c.rule, id: withKey && keyId !== null ? id + keyId : id, limit: c.limit, windowMs: c.windowMs, allowed: c.allowed, order: c.order };
        return at === undefined ? check : { ...check, at };
      }),
      inFlight: e.inFlight,
      inFlightCap: e.inFlightCap,
      faults: e.faults,
      fingerprint: e.fingerprint,
      retryAfter: e.retryAfter,
      warnings: e.warnings,
      reason: e.reason,
    };
  });

describe('journal entries as the Redis store keeps them', () => {
  it('decodes every entry into the same one, field for field and in the same order', () => {
    same(decodeJournalEntry(encodeJournalEntry(refused)), refused);
    same(decodeJournalEntry(encodeJournalEntry(admittedEntry(1, 5))), admittedEntry(1, 5));
    fc.assert(
      fc.property(entries, (entry) => {
        const encoded = encodeJournalEntry(entry);
        same(decodeJournalEntry(encoded), entry);
        expect(journalEntryAt(encoded)).toBe(entry.at === 0 ? 0 : entry.at);
      }),
    );
  });

  it('decodes a page joined as one JSON array, in order', () => {
    const page = [refused, admittedEntry(1, 5), { ...refused, seq: 3001, path: '/v1/query?x=1', keyId: null, route: null, checks: [] }];
    const decoded = decodeJournalPage(`[${page.map(encodeJournalEntry).join(',')}]`);
    expect(decoded).toHaveLength(3);
    decoded.forEach((entry, i) => same(entry, page[i]!));
    expect(decodeJournalPage('[]')).toEqual([]);
  });

  it('writes a quota refusal in well under half the characters of its JSON', () => {
    expect(encodeJournalEntry(refused).length).toBeLessThan(JSON.stringify(refused).length / 2);
  });
});
