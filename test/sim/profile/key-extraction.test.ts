import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

const QUERY = { parameters: ['summary_metrics'], preset: 'last_7d' };

/** Who the simulator says a request acts as: 200 for the read key, else the 401's hint. */
async function outcome(profile: 'spec' | 'live', headers: (secret: string) => Record<string, string>) {
  const sim = freshSimulator({ profile });
  const res = await call(sim, 'POST', '/v1/query', { headers: headers(secretOf(sim, 'key_acme_read')), query: { website_id: 'web_acme_store' }, body: QUERY });
  return res.status;
}

describe('API key extraction (packages/api-keys/src/resolve.ts, both profiles)', () => {
  const cases: [string, (s: string) => Record<string, string>, number][] = [
    ['prefers a valid x-api-key over Authorization: Bearer', (s) => ({ 'x-api-key': s, authorization: 'Bearer dbdy_not_a_real_key_123' }), 200],
    ['falls back to a valid Bearer token when x-api-key is malformed (foreign prefix)', (s) => ({ 'x-api-key': 'sk_live_1234567890', authorization: `Bearer ${s}` }), 200],
    ['falls back to a valid Bearer token when x-api-key is too short', (s) => ({ 'x-api-key': 'dbdy_1', authorization: `Bearer ${s}` }), 200],
    ['reads the Bearer scheme in any case', (s) => ({ authorization: `BEARER ${s}` }), 200],
    ['trims whitespace around x-api-key', (s) => ({ 'x-api-key': `  ${s}  ` }), 200],
    ['trims whitespace around the Bearer token', (s) => ({ authorization: `Bearer    ${s}  ` }), 200],
    ['refuses a foreign-prefix Bearer token as a malformed key (401)', () => ({ authorization: 'Bearer sk_live_1234567890' }), 401],
    ['refuses a key over 200 characters (401)', () => ({ 'x-api-key': `dbdy_${'a'.repeat(200)}` }), 401],
    ['refuses a malformed x-api-key with no Bearer token (401)', () => ({ 'x-api-key': 'not-a-key' }), 401],
    ['does not read Bearer with a tab as the separator (no credential, 401)', (s) => ({ authorization: `Bearer\t${s}` }), 401],
    ['does not read another scheme (Basic) as a key (no credential, 401)', () => ({ authorization: 'Basic dXNlcjpwYXNz' }), 401],
  ];
  for (const [name, headers, status] of cases) {
    it(`${name} under spec and live`, async () => {
      expect(await outcome('spec', headers)).toBe(status);
      expect(await outcome('live', headers)).toBe(status);
    });
  }

  it('tells a malformed credential from a missing one under spec (the 401 hint)', async () => {
    const sim = freshSimulator();
    const malformed = await call(sim, 'POST', '/v1/query', { headers: { authorization: 'Bearer sk_live_1234567890' }, query: { website_id: 'web_acme_store' }, body: QUERY });
    expect(malformed.json.hint).toMatch(/malformed/);
    const missing = await call(sim, 'POST', '/v1/query', { headers: { authorization: 'Basic dXNlcjpwYXNz' }, query: { website_id: 'web_acme_store' }, body: QUERY });
    expect(missing.json.hint).not.toMatch(/malformed/);
  });
});
