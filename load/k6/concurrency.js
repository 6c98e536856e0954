// @ts-check
/**
 * The concurrency cap (SPEC 8.2.2): 50 VUs on one key while a latency scenario holds every /v1/
 * answer 200 ms, so more than 20 are in flight. Excess requests get 429 "Too many concurrent
 * API key requests" with Retry-After: 1. With at most 20 in flight and each admitted answer held
 * 200 ms, at most 100 are admitted per second (+ 20): more means the cap leaked.
 * `-e DURATION=S` sets the seconds of load (default 30).
 */
import http from 'k6/http';
import { check } from 'k6';
import { answerThresholds, BASE_URL, DURATION, keySecret, record, reportAccuracy, resetSimulator, startScenario, stopScenario } from './lib.js';

http.setResponseCallback(http.expectedStatuses(200, 429));

const CAP = 20;
const HOLD_MS = 200;
const seconds = DURATION || 30;

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    crowd: { executor: 'constant-vus', vus: 50, duration: `${seconds}s` },
  },
  thresholds: {
    ...answerThresholds({ 200: ['count>0', `count<=${Math.ceil((CAP * seconds * 1000) / HOLD_MS) + CAP}`], 429: ['count>0'], 503: ['count==0'] }),
    http_req_failed: ['rate==0'],
  },
};

export function setup() {
  resetSimulator();
  startScenario({
    scenario: {
      name: 'load-latency',
      description: `every /v1/ answer takes ${HOLD_MS} ms`,
      steps: [{ name: 'latency', match: { route: '/v1/*' }, effect: { type: 'latency', delay: { distribution: 'fixed', ms: HOLD_MS } } }],
    },
  });
  return { secret: keySecret('key_acme_read') };
}

/** @param {{ secret: string }} data */
export default function (data) {
  const res = http.get(`${BASE_URL}/v1/query/types`, { headers: { 'x-api-key': data.secret } });
  record(res);
  check(res, {
    '200 or 429': (r) => r.status === 200 || r.status === 429,
    'every 429 is the concurrency cap, Retry-After: 1': (r) =>
      r.status !== 429 || (r.headers['Retry-After'] === '1' && String(r.json('error')).includes('Too many concurrent API key requests')),
    'every 200 was held by the latency scenario': (r) => r.status !== 200 || r.timings.duration >= HOLD_MS - 1,
  });
}

export function teardown() {
  stopScenario('load-latency');
  reportAccuracy('concurrency', ['concurrency']);
}
