import { describe, expect, it } from 'vitest';
import { createMemoryStore, ingestRule, INGEST_LIMIT } from '../../../src/index.js';

describe('the ingestion limit rule (SPEC 8.3)', () => {
  it('admits 600 ingestion requests a minute per key and refuses the 601st until a slot frees', async () => {
    const store = createMemoryStore();
    const rule = ingestRule('key_acme_track', 'web_acme_store', '203.0.113.1');
    expect(rule).toEqual({ rule: 'ingest_limit', id: 'track:apikey:key_acme_track', limit: 600, windowMs: 60_000 });
    const t0 = Date.UTC(2025, 5, 2);
    for (let i = 0; i < INGEST_LIMIT.limit; i++) expect((await store.consume(rule.id, t0 + i, rule.limit, rule.windowMs)).allowed).toBe(true);
    const refused = await store.consume(rule.id, t0 + 600, rule.limit, rule.windowMs);
    expect(refused).toEqual({ allowed: false, limit: 600, remaining: 0, reset: t0 + 60_000 });
    expect((await store.consume(rule.id, t0 + 60_000, rule.limit, rule.windowMs)).allowed).toBe(true);
  });

  it('counts keyless ingestion per website and client address', () => {
    expect(ingestRule(null, 'web_acme_store', '203.0.113.1').id).toBe('track:website:web_acme_store:203.0.113.1');
    expect(ingestRule(null, 'web_acme_store', '203.0.113.2').id).not.toBe(ingestRule(null, 'web_acme_store', '203.0.113.1').id);
  });
});

describe('the memory store', () => {
  it('forgets identities whose windows have emptied, so memory stays bounded', async () => {
    const store = createMemoryStore();
    const t0 = Date.UTC(2025, 5, 2);
    for (let i = 0; i < 5000; i++) await store.consume(`id-${i}`, t0, 10, 60_000);
    expect(store.size()).toBe(5000);
    for (let i = 0; i < 5000; i++) await store.consume('steady', t0 + 120_000 + i, 10_000, 60_000);
    expect(store.size()).toBeLessThan(10);
  });
});
