// @ts-check
/**
 * An outage with clients that honour Retry-After as SPEC 8.4 rule 4 recommends: wait at least
 * Retry-After, add a jitter under 100 ms (the audit allows 250: the rest is for the way back and
 * forth and the timer's lateness), at most 3 retries. Default: the built-in outage-window
 * (30 s – 90 s of a 120 s run every /v1/ request gets 503, Retry-After: 5). `-e DURATION=S`
 * (S < 100): the same shape scaled to the run, from 15% to 45% of it. k6 checks that 503s come
 * only inside the window the simulator announced and 200s only outside it; the teardown also
 * asks the retry audit.
 */
import http from 'k6/http';
import exec from 'k6/execution';
import { check, sleep } from 'k6';
import { answerThresholds, BASE_URL, DURATION, keySecret, record, reportAccuracy, requireDuration, resetSimulator, startScenario, stopScenario } from './lib.js';

http.setResponseCallback(http.expectedStatuses(200, 429, 503));

if (DURATION) requireDuration('outage', DURATION, 10);
const seconds = DURATION || 120;
const scaled = seconds < 100;
const SCENARIO = scaled ? 'outage-window-scaled' : 'outage-window';
/** How far a decision may sit from the window's edges on the k6 side (clock offset, transit). */
const SLACK_MS = 250;

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    clients: { executor: 'constant-vus', vus: 10, duration: `${seconds}s` },
  },
  thresholds: {
    ...answerThresholds({ 200: ['count>0'], 503: ['count>0'], 429: ['count==0'] }),
    http_req_failed: ['rate==0'],
  },
};

/**
 * @typedef {{ secret: string, from: number, until: number, offset: number }} Data
 * `from`/`until`: the outage on the simulator's clock; `offset`: simulator clock − k6's clock.
 */

/** @returns {Data} */
export function setup() {
  resetSimulator();
  startScenario(
    scaled
      ? {
          scenario: {
            name: SCENARIO,
            description: `outage-window scaled to a ${seconds} s run`,
            steps: [{ name: 'outage', start: Math.round(seconds * 150), duration: Math.round(seconds * 300), match: { route: '/v1/*' }, effect: { type: 'outage' } }],
          },
        }
      : { name: SCENARIO },
  );
  // Another segment may have started it: read the window from the running scenario either way.
  const running = /** @type {{ name: string, steps: { from: number, until: number, effect: { type: string } }[] }[]} */ (http.get(`${BASE_URL}/__sim/scenarios`).json('active'));
  const step = running.find((s) => s.name === SCENARIO)?.steps.find((s) => s.effect.type === 'outage');
  if (!step) exec.test.abort(`${SCENARIO} is not running after POST /__sim/scenarios`);
  const before = Date.now();
  const clock = /** @type {number} */ (http.get(`${BASE_URL}/__sim/clock`).json('now'));
  const offset = clock - (before + Date.now()) / 2;
  return { secret: keySecret('key_acme_read'), from: step ? step.from : 0, until: step ? step.until : 0, offset };
}

/** @param {Data} data */
export default function (data) {
  // Each logical request has its own query string, so the audit can tell its retries apart.
  const url = `${BASE_URL}/v1/query/types?load=${exec.vu.idInTest}-${exec.vu.iterationInScenario}`;
  const get = () => {
    const sent = Date.now() + data.offset;
    const res = http.get(url, { headers: { 'x-api-key': data.secret } });
    const answered = Date.now() + data.offset;
    record(res);
    check(res, {
      '200 or 503': (r) => r.status === 200 || r.status === 503,
      'every 503 is inside the outage window, with Retry-After: 5': (r) =>
        r.status !== 503 || (answered >= data.from - SLACK_MS && sent <= data.until + SLACK_MS && r.headers['Retry-After'] === '5'),
      'every 200 is outside the outage window': (r) => r.status !== 200 || answered < data.from + SLACK_MS || sent > data.until - SLACK_MS,
    });
    return res;
  };
  let res = get();
  for (let retry = 1; retry <= 3 && (res.status === 429 || res.status >= 500); retry++) {
    sleep(Math.max(1, Number(res.headers['Retry-After'] || '1')) + Math.random() * 0.1);
    res = get();
  }
  sleep(0.5);
}

export function teardown() {
  stopScenario(SCENARIO);
  reportAccuracy('outage', ['scenario']);
  const audit = http.get(`${BASE_URL}/__sim/journal/retry-audit`);
  const violations = /** @type {number} */ (audit.json('summary.violations'));
  console.log(`retry audit: ${audit.json('summary.retries')} retries, ${violations} violation(s)`);
  if (violations > 0) exec.test.fail(`${violations} retry-audit violation(s)`);
}
