import type { Answer } from './client.js';
import { REQUEST_ID_FORMAT } from './expectations.js';
import { pass, skip, verdict, type CheckResult } from './report.js';

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;

const where = (answer: Answer): string => `${answer.method} ${answer.path} ${answer.status}`;

/**
 * The limits group, judged over every answer of the run: the quota headers of an admitted answer
 * to the key (live sends them for keys with a rate limit, and none otherwise), `Retry-After` on
 * any 429 met, and the request id of every answer (live-fidelity.md 3.1-3.4, 3.14).
 */
export function limitChecks(answers: readonly Answer[]): CheckResult[] {
  return [rateLimitHeaders(answers), retryAfter(answers), requestIds(answers), requestIdInBodies(answers)];
}

function rateLimitHeaders(answers: readonly Answer[]): CheckResult {
  const check = 'X-RateLimit-* on an admitted answer';
  const expected = 'all three for a quota key, none otherwise';
  const admitted = answers.filter((a) => a.keyed && a.status >= 200 && a.status < 300);
  if (admitted.length === 0) return skip('limits', check, expected, 'no admitted answer to the key');
  const withHeaders = admitted.find((a) => RATE_HEADERS.some((h) => a.headers[h] !== undefined));
  if (withHeaders === undefined) return skip('limits', check, expected, `none on ${admitted.length} admitted answer${admitted.length === 1 ? '' : 's'}: not a quota key`);
  const [limit, remaining, reset] = RATE_HEADERS.map((h) => withHeaders.headers[h]);
  const whole = (v: string | undefined): boolean => v !== undefined && /^\d+$/.test(v);
  const ok = whole(limit) && whole(remaining) && whole(reset) && Number(remaining) <= Number(limit);
  return verdict(ok, 'limits', check, expected, `Limit ${limit ?? 'absent'}, Remaining ${remaining ?? 'absent'}, Reset ${reset ?? 'absent'} (${where(withHeaders)})`);
}

function retryAfter(answers: readonly Answer[]): CheckResult {
  const check = 'Retry-After on a 429';
  const expected = 'whole seconds ≥ 1, with X-RateLimit-*';
  const refused = answers.filter((a) => a.status === 429);
  if (refused.length === 0) return skip('limits', check, expected, 'no 429 met: the run stayed under the limits');
  const bad = refused.filter((a) => !/^[1-9]\d*$/.test(a.headers['retry-after'] ?? '') || RATE_HEADERS.some((h) => a.headers[h] === undefined));
  const seen = [...new Set(refused.map((a) => a.headers['retry-after'] ?? 'absent'))].join(', ');
  return verdict(bad.length === 0, 'limits', check, expected, `${refused.length} × 429, Retry-After ${seen}${bad.length > 0 ? `; ${bad.length} without the headers` : ''}`);
}

function requestIds(answers: readonly Answer[]): CheckResult {
  const check = 'X-Request-ID on every answer';
  const expected = 'req_ + 16 characters';
  const heard = answers.filter((a) => a.status !== 0);
  if (heard.length === 0) return skip('limits', check, expected, 'no answers');
  const bad = heard.filter((a) => !REQUEST_ID_FORMAT.test(a.headers['x-request-id'] ?? ''));
  if (bad.length === 0) return pass('limits', check, expected, `all ${heard.length} answers (e.g. ${heard[0]?.headers['x-request-id']})`);
  const first = bad[0] as Answer;
  return verdict(false, 'limits', check, expected, `${bad.length} of ${heard.length} differ: ${JSON.stringify(first.headers['x-request-id'] ?? null)} on ${where(first)}`, bad.map((a) => `${where(a)}: ${a.headers['x-request-id'] ?? 'absent'}`));
}

function requestIdInBodies(answers: readonly Answer[]): CheckResult {
  const check = 'error bodies repeat the request id';
  const expected = 'requestId = X-Request-ID';
  const errors = answers.filter((a) => a.status >= 400 && a.json !== null && typeof a.json === 'object');
  if (errors.length === 0) return skip('limits', check, expected, 'no JSON error answer met');
  const bad = errors.filter((a) => (a.json as { requestId?: unknown }).requestId !== a.headers['x-request-id']);
  return verdict(bad.length === 0, 'limits', check, expected, bad.length === 0 ? `all ${errors.length} error answers` : `${bad.length} of ${errors.length} differ (${where(bad[0] as Answer)})`);
}
