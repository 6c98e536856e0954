// @ts-check
/**
 * An outage (the built-in outage-window: 30 s – 90 s every /v1/ request gets 503, Retry-After: 5)
 * with clients that honour Retry-After as SPEC 8.4 rule 4 recommends: wait at least Retry-After,
 * add a jitter under 250 ms, at most 3 retries. The teardown also asks the retry audit.
 */
import http from 'k6/http';
import exec from 'k6/execution';
import { check, sleep } from 'k6';
import { BASE_URL, keySecret, reportAccuracy, startScenario, stopScenario } from './lib.js';

http.setResponseCallback(http.expectedStatuses(200, 429, 503));

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    clients: { executor: 'constant-vus', vus: 10, duration: '120s' },
  },
  thresholds: {
    checks: ['rate==1'],
    http_req_failed: ['rate==0'],
  },
};

export function setup() {
  startScenario({ name: 'outage-window' });
  return { secret: keySecret('key_acme_read') };
}

/** @param {{ secret: string }} data */
export default function (data) {
  // Each logical request has its own query string, so the audit can tell its retries apart.
  const url = `${BASE_URL}/v1/query/types?load=${exec.vu.idInTest}-${exec.vu.iterationInScenario}`;
  let res = http.get(url, { headers: { 'x-api-key': data.secret } });
  for (let retry = 1; retry <= 3 && (res.status === 429 || res.status >= 500); retry++) {
    check(res, { '503 carries Retry-After: 5': (r) => r.status !== 503 || r.headers['Retry-After'] === '5' });
    sleep(Math.max(1, Number(res.headers['Retry-After'] || '1')) + Math.random() * 0.24);
    res = http.get(url, { headers: { 'x-api-key': data.secret } });
  }
  sleep(0.5);
}

export function teardown() {
  stopScenario('outage-window');
  reportAccuracy('outage', ['scenario']);
  const audit = http.get(`${BASE_URL}/__sim/journal/retry-audit`);
  const violations = /** @type {number} */ (audit.json('summary.violations'));
  console.log(`retry audit: ${audit.json('summary.retries')} retries, ${violations} violation(s)`);
  if (violations > 0) exec.test.fail(`${violations} retry-audit violation(s)`);
}
