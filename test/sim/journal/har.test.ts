import { describe, expect, it } from 'vitest';
// har-validator checks a log against the HAR 1.2 JSON schemas (har-schema).
import { har as validateHar } from 'har-validator';
import type { Har } from '../../../src/contract/har.js';
import { harSchema } from '../../../src/contract/har.js';
import { SUMMARY_QUERY } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

async function harOf(sim: ReturnType<typeof freshSimulator>, query: Record<string, string> = {}): Promise<Har> {
  const answer = await call(sim, 'GET', '/__sim/journal.har', { query });
  expect(answer.status).toBe(200);
  expect(answer.headers['Content-Disposition']).toBe('attachment; filename="analytics-sim.har"');
  return answer.json as Har;
}

describe('GET /__sim/journal.har', () => {
  it('gives the exchanges of the run as HAR 1.2 that a HAR schema validator accepts, in journal order', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_read');
    const ok = await call(sim, 'POST', '/v1/query', { query: { website_id: 'web_acme_store' }, key, headers: { host: 'sim.test:8787' }, body: SUMMARY_QUERY });
    await call(sim, 'POST', '/v1/query', { query: { website_id: 'web_acme_store' }, key: secretOf(sim, 'key_globex_read'), body: SUMMARY_QUERY });
    const har = await harOf(sim);
    await expect(validateHar(har)).resolves.toEqual(har);
    expect(harSchema.safeParse(har).success).toBe(true);
    expect(har.log.creator.name).toBe('analytics-sim');
    expect(har.log.entries.map((e) => [e.request.method, e.request.url, e.response.status, e._outcome])).toEqual([
      ['POST', 'http://sim.test:8787/v1/query?website_id=web_acme_store', 200, 'admitted'],
      ['POST', 'http://localhost/v1/query?website_id=web_acme_store', 403, 'admitted'],
    ]);
    const first = har.log.entries[0];
    expect(first?._requestId).toBe(ok.headers['X-Request-ID']);
    expect(first?.startedDateTime).toBe(new Date(sim.clock.now()).toISOString());
    expect(first?.response.headers).toContainEqual({ name: 'X-Request-ID', value: ok.headers['X-Request-ID'] });
    expect(first?.response.content).toEqual({ size: ok.text.length, mimeType: 'application/json; charset=utf-8' });
  });

  it('never holds a credential: the key header is redacted, and so is a key in a query value or a body', async () => {
    const sim = freshSimulator({ harBodies: 4096 });
    const key = secretOf(sim, 'key_acme_read');
    await call(sim, 'POST', '/v1/query', { query: { website_id: 'web_acme_store', note: key }, key, headers: { authorization: `Bearer ${key}`, cookie: 'session=abc' }, body: { ...SUMMARY_QUERY, comment: key } });
    const text = JSON.stringify(await harOf(sim));
    expect(text).not.toContain(key);
    expect(text).not.toContain('session=abc');
    const entry = (JSON.parse(text) as Har).log.entries[0];
    expect(entry?.request.headers).toContainEqual({ name: 'x-api-key', value: '[redacted]' });
    expect(entry?.request.headers).toContainEqual({ name: 'authorization', value: '[redacted]' });
    expect(entry?.request.postData?.text).toContain('"comment":"[redacted]"');
  });

  it('keeps no bodies by default, and both bodies with harBodies, cut at that many characters and said so', async () => {
    const plain = freshSimulator();
    const key = secretOf(plain, 'key_acme_read');
    await call(plain, 'POST', '/v1/query', { query: { website_id: 'web_acme_store' }, key, body: SUMMARY_QUERY });
    const without = (await harOf(plain)).log.entries[0];
    expect(without?.request.postData).toBeUndefined();
    expect(without?.response.content.text).toBeUndefined();
    expect(without?.request.bodySize).toBe(JSON.stringify(SUMMARY_QUERY).length);

    const withBodies = freshSimulator({ harBodies: 100 });
    const answer = await call(withBodies, 'POST', '/v1/query', { query: { website_id: 'web_acme_store' }, key: secretOf(withBodies, 'key_acme_read'), body: SUMMARY_QUERY });
    const entry = (await harOf(withBodies)).log.entries[0];
    expect(entry?.request.postData).toEqual({ mimeType: 'application/json', text: JSON.stringify(SUMMARY_QUERY) });
    expect(entry?.response.content.text).toBe(answer.text.slice(0, 100));
    expect(entry?.response.content.size).toBe(answer.text.length);
    expect(entry?.comment).toBe('bodies cut at 100 characters (--har-bodies)');
  });

  it('carries a binary answer (the pixel) as base64', async () => {
    const sim = freshSimulator({ harBodies: 4096 });
    const answer = await sim.handle({ method: 'GET', path: '/px.jpg', query: { client_id: 'web_acme_store', path: '/pricing' }, headers: { 'user-agent': 'Mozilla/5.0' } });
    const entry = (await harOf(sim)).log.entries[0];
    expect(entry?.response.content.encoding).toBe('base64');
    expect(Buffer.from(entry?.response.content.text ?? '', 'base64')).toEqual(Buffer.from(answer.bytes ?? new Uint8Array()));
  });

  it('takes the journal filters, and is empty after the journal is cleared', async () => {
    const sim = freshSimulator({ limits: 'enforce' });
    const key = secretOf(sim, 'key_acme_read');
    for (let i = 0; i < 121; i++) await call(sim, 'POST', '/v1/query', { query: { website_id: 'web_acme_store' }, key, body: SUMMARY_QUERY });
    const refused = await harOf(sim, { outcome: 'endpoint_limit' });
    expect(refused.log.entries.map((e) => e.response.status)).toEqual([429]);
    expect(refused.log.entries[0]?.response.headers.find((h) => h.name === 'Retry-After')).toBeDefined();
    expect((await harOf(sim, { limit: '5' })).log.entries).toHaveLength(5);
    expect((await call(sim, 'DELETE', '/__sim/journal')).status).toBe(200);
    expect((await harOf(sim)).log.entries).toEqual([]);
  });

  it('keeps the latest 100 exchanges by default, as many as harEntries says, and says how many matching entries it no longer holds', async () => {
    const sim = freshSimulator();
    for (let i = 0; i < 103; i++) await sim.handle({ method: 'GET', path: '/health', query: {}, headers: {} });
    const har = await harOf(sim);
    expect(har.log.entries).toHaveLength(100);
    expect(har.log.entries[0]?._seq).toBe(4);
    expect(har.log.comment).toContain('3 journal entries matched whose exchanges are not kept here');

    const more = freshSimulator({ harEntries: 1_000 });
    for (let i = 0; i < 1_003; i++) await more.handle({ method: 'GET', path: '/health', query: {}, headers: {} });
    expect((await harOf(more)).log.entries).toHaveLength(1_000);

    const none = freshSimulator({ harEntries: 0 });
    await none.handle({ method: 'GET', path: '/health', query: {}, headers: {} });
    expect((await harOf(none)).log.entries).toEqual([]);
  });

  it('refuses a body limit beyond 65,536 characters and more than 100,000 exchanges at creation, naming them', () => {
    expect(() => freshSimulator({ harBodies: 100_000 })).toThrow('harBodies: whole characters from 0 to 65536 (got 100000)');
    expect(() => freshSimulator({ harEntries: 100_001 })).toThrow('harEntries: whole exchanges from 0 to 100000 (got 100001)');
  });
});
