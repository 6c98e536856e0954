// @ts-check
/**
 * Smoke: cheap queries with key_acme_read, far under every limit (2 iterations/s, each a query
 * and a types call). All must be admitted: k6 fails the run on any 429, 503 or other answer.
 * `-e DURATION=S` sets the seconds of load (default 5).
 */
import http from 'k6/http';
import { check } from 'k6';
import { answerThresholds, BASE_URL, CHEAP_QUERY, DURATION, keySecret, record, reportAccuracy, resetSimulator } from './lib.js';

const seconds = DURATION || 5;

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    smoke: { executor: 'constant-arrival-rate', rate: 2, timeUnit: '1s', duration: `${seconds}s`, preAllocatedVUs: 2, maxVUs: 4 },
  },
  thresholds: {
    ...answerThresholds({ 200: ['count>0'], 429: ['count==0'], 503: ['count==0'] }),
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
  check(res, { 'admitted (200)': (r) => r.status === 200 });
  const types = http.get(`${BASE_URL}/v1/query/types`, { headers: { 'x-api-key': data.secret } });
  record(types);
  check(types, { 'types (200)': (r) => r.status === 200 });
}

export function teardown() {
  const summary = reportAccuracy('smoke', []);
  if (summary && summary.admitted !== summary.offered) console.error(`smoke: ${summary.offered - summary.admitted} request(s) refused`);
}
