// @ts-check
/** An ingestion burst past 600 requests per 60 s (SPEC 8.3): POST /track with key_acme_track at 20/s for 60 s. */
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, keySecret, reportAccuracy } from './lib.js';

http.setResponseCallback(http.expectedStatuses(200, 429));

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    burst: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '60s', preAllocatedVUs: 10, maxVUs: 40 },
  },
  thresholds: {
    checks: ['rate==1'],
    http_req_failed: ['rate==0'],
    http_req_duration: ['p(99)<500'],
  },
};

export function setup() {
  return { secret: keySecret('key_acme_track') };
}

/** @param {{ secret: string }} data */
export default function (data) {
  const res = http.post(`${BASE_URL}/track`, JSON.stringify({ name: 'load_burst', websiteId: 'web_acme_store', anonymousId: 'anon_load' }), {
    headers: { 'content-type': 'application/json', authorization: `Bearer ${data.secret}` },
  });
  check(res, {
    '200 or 429': (r) => r.status === 200 || r.status === 429,
    '429 carries X-RateLimit-Limit: 600': (r) => r.status !== 429 || r.headers['X-Ratelimit-Limit'] === '600',
  });
}

export function teardown() {
  reportAccuracy('ingest-burst', ['ingest_limit']);
}
