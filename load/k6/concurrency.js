// @ts-check
/**
 * The concurrency cap (SPEC 8.2.2): 50 VUs on one key while a latency scenario holds every /v1/
 * answer 200 ms, so more than 20 are in flight. Excess requests get 429 "Too many concurrent
 * API key requests" with Retry-After: 1.
 */
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, keySecret, reportAccuracy, startScenario, stopScenario } from './lib.js';

http.setResponseCallback(http.expectedStatuses(200, 429));

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    crowd: { executor: 'constant-vus', vus: 50, duration: '30s' },
  },
  thresholds: {
    checks: ['rate==1'],
    http_req_failed: ['rate==0'],
  },
};

export function setup() {
  startScenario({
    scenario: {
      name: 'load-latency',
      description: 'every /v1/ answer takes 200 ms',
      steps: [{ name: 'latency', match: { route: '/v1/*' }, effect: { type: 'latency', delay: { distribution: 'fixed', ms: 200 } } }],
    },
  });
  return { secret: keySecret('key_acme_read') };
}

/** @param {{ secret: string }} data */
export default function (data) {
  const res = http.get(`${BASE_URL}/v1/query/types`, { headers: { 'x-api-key': data.secret } });
  check(res, {
    '200 or 429': (r) => r.status === 200 || r.status === 429,
    'a 429 is the concurrency cap, Retry-After: 1': (r) =>
      r.status !== 429 || (r.headers['Retry-After'] === '1' && String(r.json('error')).includes('Too many concurrent API key requests')),
  });
}

export function teardown() {
  stopScenario('load-latency');
  reportAccuracy('concurrency', ['concurrency']);
}
