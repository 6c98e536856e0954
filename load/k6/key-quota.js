// @ts-check
/**
 * key_acme_quota past its rolling quota of 10 requests per 60 s (SPEC 8.2.1). Default: 1
 * request/s for 90 s. `-e DURATION=S` (S < 60: the short form): 10 requests/s for S seconds, all
 * in one window, so exactly 10 are admitted. Every refusal is a 429 naming the key quota, with
 * Retry-After.
 */
import http from 'k6/http';
import { check } from 'k6';
import { admittedPerWindow, answerThresholds, BASE_URL, DURATION, keySecret, record, reportAccuracy, requireDuration, resetSimulator } from './lib.js';

http.setResponseCallback(http.expectedStatuses(200, 429));

const QUOTA = 10;
if (DURATION) requireDuration('key-quota', DURATION, 2);
const seconds = DURATION || 90;

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    quota: { executor: 'constant-arrival-rate', rate: DURATION ? 10 : 1, timeUnit: '1s', duration: `${seconds}s`, preAllocatedVUs: 4, maxVUs: 10 },
  },
  thresholds: {
    ...answerThresholds({ 200: admittedPerWindow(QUOTA, 60, seconds), 429: ['count>0'], 503: ['count==0'] }),
    http_req_failed: ['rate==0'],
    answer_ms: ['p(99)<500'],
  },
};

export function setup() {
  resetSimulator();
  return { secret: keySecret('key_acme_quota') };
}

/** @param {{ secret: string }} data */
export default function (data) {
  const res = http.get(`${BASE_URL}/v1/query/types`, { headers: { 'x-api-key': data.secret } });
  record(res);
  check(res, {
    '200 or 429': (r) => r.status === 200 || r.status === 429,
    'every 429 names the key quota, with Retry-After': (r) =>
      r.status !== 429 || (String(r.json('error')).includes('API key rate limit exceeded') && Number(r.headers['Retry-After']) >= 1),
  });
}

export function teardown() {
  reportAccuracy('key-quota', ['key_quota']);
}
