// @ts-check
/** key_acme_quota past its rolling quota of 10 requests per 60 s (SPEC 8.2.1): 1 request/s for 90 s. */
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, keySecret, reportAccuracy } from './lib.js';

http.setResponseCallback(http.expectedStatuses(200, 429));

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    quota: { executor: 'constant-arrival-rate', rate: 1, timeUnit: '1s', duration: '90s', preAllocatedVUs: 4, maxVUs: 10 },
  },
  thresholds: {
    checks: ['rate==1'],
    http_req_failed: ['rate==0'],
    http_req_duration: ['p(99)<500'],
  },
};

export function setup() {
  return { secret: keySecret('key_acme_quota') };
}

/** @param {{ secret: string }} data */
export default function (data) {
  const res = http.get(`${BASE_URL}/v1/query/types`, { headers: { 'x-api-key': data.secret } });
  check(res, {
    '200 or 429': (r) => r.status === 200 || r.status === 429,
    '429 names the key quota': (r) => r.status !== 429 || String(r.json('error')).includes('API key rate limit exceeded'),
  });
}

export function teardown() {
  reportAccuracy('key-quota', ['key_quota']);
}
