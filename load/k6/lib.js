// @ts-check
/**
 * Shared by the k6 plans: the base URL and key from __ENV, the fixture key secret by default,
 * scenarios through the control plane, and the admission-accuracy report from the journal.
 */
import http from 'k6/http';
import exec from 'k6/execution';
import { Counter, Trend } from 'k6/metrics';
import { formatReport, isExact, summarizeJournal } from '../expectations.js';

/** The simulator, `-e BASE_URL=http://127.0.0.1:8787` (default). */
export const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:8787').replace(/\/$/, '');

/**
 * Seconds of load of the short form, `-e DURATION=S` (`npm run load:k6 -- --short` sets it);
 * 0 when not given: the plan runs its long default shape.
 */
export const DURATION = Math.max(0, Number(__ENV.DURATION) || 0);

/**
 * True when this process runs one execution segment of several (`-e SEGMENT=0:1/2`, set by
 * `npm run load:k6 -- --segments N`; give it yourself beside `--execution-segment`). A segment
 * sees only its share of the load, so count thresholds become upper bounds and the journal
 * verdict is left to whoever merges the segments.
 */
export const SEGMENTED = Boolean(__ENV.SEGMENT);

/** Answers by status, counted by {@link record}: the runner reads them from k6's summary. */
const answers = {
  200: new Counter('answers_200'),
  429: new Counter('answers_429'),
  503: new Counter('answers_503'),
  other: new Counter('answers_other'),
};

/** Latency of the plan's own requests (not the control-plane calls of setup and teardown), ms. */
const answerMs = new Trend('answer_ms', true);

/**
 * Counts an answer of the load by status and records its latency.
 * @param {import('k6/http').RefinedResponse<import('k6/http').ResponseType | undefined>} res
 */
export function record(res) {
  const counter = res.status === 200 || res.status === 429 || res.status === 503 ? answers[res.status] : answers.other;
  counter.add(1);
  answerMs.add(res.timings.duration);
}

/**
 * Thresholds on the answers by status that every plan has: no answer other than 200, 429 or
 * 503, every check passed, and the status counts the plan gives (`count==N`, `count>0`, …).
 * Under {@link SEGMENTED}, `count==N` becomes `count<=N` and `count>0` is dropped: one segment
 * sees only part of the load.
 * @param {Partial<Record<'200' | '429' | '503', string[]>>} counts
 * @returns {Record<string, string[]>}
 */
export function answerThresholds(counts) {
  /** @type {Record<string, string[]>} */
  const out = { checks: ['rate==1'], answers_other: ['count==0'] };
  for (const [status, rules] of Object.entries(counts)) {
    const kept = SEGMENTED ? rules.filter((r) => !r.startsWith('count>')).map((r) => r.replace('count==', 'count<=')) : rules;
    if (kept.length > 0) out[`answers_${status}`] = kept;
  }
  return out;
}

/**
 * Thresholds on the admitted answers (`answers_200`) of a plan that offers more than `limit`
 * requests to one window of a sliding-log limit: exactly `limit` when the whole run fits in one
 * window, else between `limit` and `limit` per window the run touches (every span of one window
 * holds at most `limit` admissions).
 * @param {number} limit
 * @param {number} windowSeconds
 * @param {number} durationSeconds
 * @returns {string[]}
 */
export function admittedPerWindow(limit, windowSeconds, durationSeconds) {
  if (durationSeconds < windowSeconds) return [`count==${limit}`];
  return [`count>=${limit}`, `count<=${limit * (Math.floor(durationSeconds / windowSeconds) + 1)}`];
}

/**
 * Fails at start-up (k6 prints the message) when `-e DURATION` is too short for the plan to pass
 * its limit.
 * @param {string} plan
 * @param {number} seconds the duration in force
 * @param {number} min
 */
export function requireDuration(plan, seconds, min) {
  if (seconds < min) throw new Error(`${plan} needs at least ${min} s of load to go past its limit: give -e DURATION=${min} or more`);
}

/**
 * Clears the simulator (`POST /__sim/reset`) so the plan starts from empty windows, unless
 * `-e RESET=0` (the runner resets once itself, before all segments).
 */
export function resetSimulator() {
  if (__ENV.RESET === '0') return;
  const res = http.post(`${BASE_URL}/__sim/reset`);
  if (res.status !== 200 && res.status !== 204) exec.test.abort(`POST /__sim/reset answered ${res.status}: ${res.body}`);
}

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
  const res = http.post(`${BASE_URL}/__sim/scenarios`, JSON.stringify(body), {
    headers: { 'content-type': 'application/json' },
    responseCallback: http.expectedStatuses(201, 409),
  });
  if (res.status !== 201 && res.status !== 409) exec.test.abort(`POST /__sim/scenarios answered ${res.status}: ${res.body}`);
}

/**
 * Stops a running scenario (one that already ended is fine).
 * @param {string} name
 */
export function stopScenario(name) {
  // 404: it already ended (or another segment stopped it), which is not a failed request.
  http.del(`${BASE_URL}/__sim/scenarios/${name}`, null, { headers: { 'content-type': 'application/json' }, responseCallback: http.expectedStatuses(200, 404) });
}

/**
 * Pulls GET /__sim/journal and GET /__sim/journal/oracle, prints the accuracy report and fails
 * the run (exit code 110) unless accuracy is 100% with no over-admission and each rule in
 * `provokes` refused something. Skipped (undefined) under {@link SEGMENTED} or `-e REPORT=0`.
 * @param {string} plan
 * @param {readonly string[]} provokes
 */
export function reportAccuracy(plan, provokes) {
  if (SEGMENTED || __ENV.REPORT === '0') {
    console.log(`${plan}: the journal verdict is left to the merge of the segments (npm run load:k6 -- --segments N)`);
    return undefined;
  }
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
