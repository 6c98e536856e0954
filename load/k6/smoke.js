// @ts-check
/** Smoke: a few cheap queries with key_acme_read, far under every limit. All must be admitted. */
import http from 'k6/http';
import { check, sleep } from 'k6';
import { BASE_URL, CHEAP_QUERY, keySecret, reportAccuracy } from './lib.js';

/** @type {import('k6/options').Options} */
export const options = {
  vus: 1,
  iterations: 10,
  thresholds: {
    http_req_failed: ['rate==0'],
    checks: ['rate==1'],
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
  check(res, { 'admitted (200)': (r) => r.status === 200 });
  const types = http.get(`${BASE_URL}/v1/query/types`, { headers: { 'x-api-key': data.secret } });
  check(types, { 'types (200)': (r) => r.status === 200 });
  sleep(0.2);
}

export function teardown() {
  const summary = reportAccuracy('smoke', []);
  if (summary.admitted !== summary.offered) console.error(`smoke: ${summary.offered - summary.admitted} request(s) refused`);
}
