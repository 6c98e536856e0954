// @ts-check
/**
 * Shared by the k6 plans: the base URL and key from __ENV, the fixture key secret by default,
 * scenarios through the control plane, and the admission-accuracy report from the journal.
 */
import http from 'k6/http';
import exec from 'k6/execution';
import { formatReport, isExact, summarizeJournal } from '../expectations.js';

/** The simulator, `-e BASE_URL=http://127.0.0.1:8787` (default). */
export const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:8787').replace(/\/$/, '');

/** A cheap query: one parameter, today. */
export const CHEAP_QUERY = JSON.stringify({ parameters: ['summary_metrics'], preset: 'today' });

/**
 * The key secret: `-e KEY=dbdy_…`, else the fixture key `fixtureId` from GET /__sim/fixtures.
 * @param {string} fixtureId
 * @returns {string}
 */
export function keySecret(fixtureId) {
  if (__ENV.KEY) return __ENV.KEY;
  const res = http.get(`${BASE_URL}/__sim/fixtures`);
  if (res.status !== 200) exec.test.abort(`GET /__sim/fixtures answered ${res.status}`);
  const keys = /** @type {{ id: string, secret: string | null }[]} */ (res.json('apiKeys'));
  const key = keys.find((k) => k.id === fixtureId);
  if (!key || !key.secret) {
    exec.test.abort(`no secret for ${fixtureId}; pass -e KEY=…`);
    return '';
  }
  return key.secret;
}

/**
 * Starts a scenario now: `{ name }` of a built-in or `{ scenario: { … } }` (409: already running).
 * @param {unknown} body
 */
export function startScenario(body) {
  const res = http.post(`${BASE_URL}/__sim/scenarios`, JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  if (res.status !== 201 && res.status !== 409) exec.test.abort(`POST /__sim/scenarios answered ${res.status}: ${res.body}`);
}

/**
 * Stops a running scenario.
 * @param {string} name
 */
export function stopScenario(name) {
  http.del(`${BASE_URL}/__sim/scenarios/${name}`, null, { headers: { 'content-type': 'application/json' } });
}

/**
 * Pulls GET /__sim/journal and GET /__sim/journal/oracle, prints the accuracy report and fails
 * the run (exit code 110) unless accuracy is 100% with no over-admission and each rule in
 * `provokes` refused something.
 * @param {string} plan
 * @param {readonly string[]} provokes
 */
export function reportAccuracy(plan, provokes) {
  const journal = http.get(`${BASE_URL}/__sim/journal`, { responseType: 'text', timeout: '120s' });
  const oracle = http.get(`${BASE_URL}/__sim/journal/oracle`, { timeout: '120s' });
  const body = /** @type {{ info: { complete: boolean, since: number }, entries: import('../expectations.js').Entry[] }} */ (JSON.parse(String(journal.body)));
  const summary = summarizeJournal(body.entries, body.info);
  const oracleAccuracy = /** @type {number} */ (oracle.json('accuracy'));
  const oracleOver = /** @type {number} */ (oracle.json('overAdmissions'));
  console.log(`\n${formatReport(plan, summary, { oracleAccuracy }).join('\n')}`);
  if (!isExact(summary) || !isExact({ accuracy: oracleAccuracy, overAdmissions: oracleOver })) {
    exec.test.fail(`admission accuracy ${summary.accuracy}% with ${summary.overAdmissions} over-admission(s)`);
  }
  for (const rule of provokes) {
    if (!summary.refusedByRule[rule]) exec.test.fail(`the run provoked no ${rule} refusal: offer more load`);
  }
  return summary;
}
