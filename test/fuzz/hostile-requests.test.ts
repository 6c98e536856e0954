import { describe, expect, it } from 'vitest';
import type { SimRequest, SimResponse } from '../../src/sim/messages.js';
import { FAILURE_KINDS, inProcessTarget, runFuzz, type FuzzTarget } from './fuzz-run.js';

/** A target that answers every request with what `answer` makes of it. */
function fakeTarget(answer: (request: SimRequest, secret: string) => SimResponse): FuzzTarget {
  const real = inProcessTarget();
  let secret = '';
  return {
    async credentials() {
      const credentials = await real.credentials();
      secret = credentials.apiKeys[0] as string;
      return credentials;
    },
    reset: async () => undefined,
    send: async (request) => answer(request, secret),
  };
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

describe('npm run fuzz', () => {
  it('finds no 5xx, non-JSON error, leaked secret, exception or pollution in a seeded short run over every route', async () => {
    const report = await runFuzz({ runs: 200, seed: 15 });
    expect(report.requests).toBeGreaterThanOrEqual(200);
    for (const kind of FAILURE_KINDS) expect(report[kind], kind).toEqual({ count: 0, examples: [] });
  }, 120_000);

  it('counts each kind of failure a broken server shows', async () => {
    let n = 0;
    const report = await runFuzz({
      runs: 10,
      seed: 1,
      target: fakeTarget((_request, secret) => {
        n++;
        if (n % 5 === 0) throw new Error('boom');
        if (n % 5 === 1) return { status: 500, headers: JSON_HEADERS, body: '{"success":false,"code":"INTERNAL_SERVER_ERROR","error":"x"}' };
        if (n % 5 === 2) return { status: 400, headers: { 'Content-Type': 'text/plain' }, body: 'Bad Request' };
        if (n % 5 === 3) return { status: 200, headers: JSON_HEADERS, body: JSON.stringify({ key: secret }) };
        (Object.prototype as Record<string, unknown>).polluted = 'yes';
        return { status: 200, headers: JSON_HEADERS, body: '{}' };
      }),
    });
    for (const kind of FAILURE_KINDS) expect(report[kind].count, kind).toBeGreaterThan(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
