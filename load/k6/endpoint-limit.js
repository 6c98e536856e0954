// @ts-check
/**
 * One key (key_acme_read: no quota) past the POST /v1/query limit of 120 per minute (SPEC 8.1).
 * Default: a ramp 0 → 4 requests/s over 90 s. `-e DURATION=S` (S < 60: the short form): 30
 * requests/s for S seconds, all in one window, so exactly 120 are admitted. Every refusal is a
 * SPEC 8.4 429 with Retry-After and X-RateLimit-*.
 */
import http from 'k6/http';
import { check } from 'k6';
import { admittedPerWindow, answerThresholds, BASE_URL, CHEAP_QUERY, DURATION, keySecret, record, reportAccuracy, requireDuration, resetSimulator } from './lib.js';

http.setResponseCallback(http.expectedStatuses(200, 429));

const LIMIT = 120;
if (DURATION) requireDuration('endpoint-limit', DURATION, 5);
const seconds = DURATION || 90;

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    ramp: DURATION
      ? { executor: 'constant-arrival-rate', rate: 30, timeUnit: '1s', duration: `${DURATION}s`, preAllocatedVUs: 10, maxVUs: 50 }
      : {
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
    ...answerThresholds({ 200: admittedPerWindow(LIMIT, 60, seconds), 429: ['count>0'], 503: ['count==0'] }),
    http_req_failed: ['rate==0'],
    answer_ms: ['p(99)<500'],
  },
};

export function setup() {
  resetSimulator();
  return { secret: keySecret('key_acme_read') };
}

/** @param {{ secret: string }} data */
export default function (data) {
  const res = http.post(`${BASE_URL}/v1/query?website_id=web_acme_store`, CHEAP_QUERY, {
    headers: { 'content-type': 'application/json', 'x-api-key': data.secret },
  });
  record(res);
  check(res, {
    '200 or 429': (r) => r.status === 200 || r.status === 429,
    'every 429 carries Retry-After and X-RateLimit-Limit: 120': (r) =>
      r.status !== 429 || (Number(r.headers['Retry-After']) >= 1 && r.headers['X-Ratelimit-Limit'] === String(LIMIT) && r.headers['X-Ratelimit-Reset'] !== undefined),
  });
}

export function teardown() {
  reportAccuracy('endpoint-limit', ['endpoint_limit']);
}
