// @ts-check
/**
 * An ingestion burst past 600 requests per 60 s (SPEC 8.3): POST /track with key_acme_track.
 * Default: 20/s for 59 s. `-e DURATION=S` (the short form): 200/s for S seconds. Either way the
 * run fits in one window, so exactly 600 are admitted; every refusal is a 429 with
 * X-RateLimit-Limit: 600 and Retry-After.
 */
import http from 'k6/http';
import { check } from 'k6';
import { admittedPerWindow, answerThresholds, BASE_URL, DURATION, keySecret, record, reportAccuracy, requireDuration, resetSimulator } from './lib.js';

http.setResponseCallback(http.expectedStatuses(200, 429));

const LIMIT = 600;
if (DURATION) requireDuration('ingest-burst', DURATION, 4);
const seconds = DURATION || 59;

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    burst: { executor: 'constant-arrival-rate', rate: DURATION ? 200 : 20, timeUnit: '1s', duration: `${seconds}s`, preAllocatedVUs: 20, maxVUs: 60 },
  },
  thresholds: {
    ...answerThresholds({ 200: admittedPerWindow(LIMIT, 60, seconds), 429: ['count>0'], 503: ['count==0'] }),
    http_req_failed: ['rate==0'],
    answer_ms: ['p(99)<500'],
  },
};

export function setup() {
  resetSimulator();
  return { secret: keySecret('key_acme_track') };
}

/** @param {{ secret: string }} data */
export default function (data) {
  const res = http.post(`${BASE_URL}/track`, JSON.stringify({ name: 'load_burst', websiteId: 'web_acme_store', anonymousId: 'anon_load' }), {
    headers: { 'content-type': 'application/json', authorization: `Bearer ${data.secret}` },
  });
  record(res);
  check(res, {
    '200 or 429': (r) => r.status === 200 || r.status === 429,
    'every 429 carries X-RateLimit-Limit: 600 and Retry-After': (r) =>
      r.status !== 429 || (r.headers['X-Ratelimit-Limit'] === String(LIMIT) && Number(r.headers['Retry-After']) >= 1),
  });
}

export function teardown() {
  reportAccuracy('ingest-burst', ['ingest_limit']);
}
