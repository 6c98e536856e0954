// @ts-check
/**
 * Ramps one key (key_acme_read: no quota) past the POST /v1/query limit of 120 per minute
 * (SPEC 8.1): 0 → 4 requests/s. Every answer is 200 or a SPEC 8.4 429.
 */
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, CHEAP_QUERY, keySecret, reportAccuracy } from './lib.js';

http.setResponseCallback(http.expectedStatuses(200, 429));

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    ramp: {
      executor: 'ramping-arrival-rate',
      startRate: 0,
      timeUnit: '1s',
      preAllocatedVUs: 10,
      maxVUs: 50,
      stages: [
        { target: 1, duration: '30s' },
        { target: 4, duration: '30s' },
        { target: 4, duration: '30s' },
      ],
    },
  },
  thresholds: {
    checks: ['rate==1'],
    http_req_failed: ['rate==0'],
    http_req_duration: ['p(99)<500'],
  },
};

export function setup() {
  return { secret: keySecret('key_acme_read') };
}

/** @param {{ secret: string }} data */
export default function (data) {
  const res = http.post(`${BASE_URL}/v1/query?website_id=web_acme_store`, CHEAP_QUERY, {
    headers: { 'content-type': 'application/json', 'x-api-key': data.secret },
  });
  check(res, {
    '200 or 429': (r) => r.status === 200 || r.status === 429,
    '429 carries Retry-After and X-RateLimit-*': (r) =>
      r.status !== 429 || (Number(r.headers['Retry-After']) >= 1 && r.headers['X-Ratelimit-Limit'] === '120' && r.headers['X-Ratelimit-Reset'] !== undefined),
  });
}

export function teardown() {
  reportAccuracy('endpoint-limit', ['endpoint_limit']);
}
