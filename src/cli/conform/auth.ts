import { describeAnswer, type Answer } from './client.js';
import { MALFORMED_KEY, PRIVATE_TYPE, SHAPE_PRESET, UNKNOWN_WEBSITE } from './expectations.js';
import { codeOf, type Probe, type ProbeCheck } from './probe.js';

/** `401 AUTH_REQUIRED`, the live answer to a request without a usable credential. */
const authRequired = (check: string): ProbeCheck => ({
  check,
  expected: '401 AUTH_REQUIRED',
  judge: (answer) => ({ ok: answer.status === 401 && codeOf(answer) === 'AUTH_REQUIRED', observed: describeAnswer(answer) }),
});

/**
 * Every live 401 carries a Bearer challenge (routes/query.ts, http/errors.ts). Its parameters
 * (live: `resource_metadata=…`) are reported, not judged: the live literal was not found in the source.
 */
const challenge = (check: string): ProbeCheck => ({
  check,
  expected: 'WWW-Authenticate: Bearer …',
  judge: (answer: Answer) => {
    const value = answer.headers['www-authenticate'];
    if (value === undefined) return { ok: false, observed: answer.status === 0 ? describeAnswer(answer) : `no WWW-Authenticate header (${answer.status})` };
    return { ok: /^Bearer(\s|$)/i.test(value), observed: value };
  },
});

/** One query of a type that is public on neither list, over the last 7 days, on `websiteId`. */
const queryOn = (websiteId: string) => ({
  method: 'POST' as const,
  path: '/v1/query',
  query: { website_id: websiteId },
  body: { parameters: [PRIVATE_TYPE], preset: SHAPE_PRESET },
});

/** The auth group: who may ask, and how a refusal reads (live-fidelity.md 3.6). */
export const AUTH_PROBES: readonly Probe[] = [
  {
    group: 'auth',
    request: (options) => ({ ...queryOn(options.website ?? UNKNOWN_WEBSITE), credential: 'none' }),
    checks: [authRequired('no key on a private website'), challenge('no key: WWW-Authenticate')],
  },
  {
    group: 'auth',
    request: (options) => ({ ...queryOn(options.website ?? UNKNOWN_WEBSITE), credential: { apiKey: MALFORMED_KEY } }),
    checks: [authRequired('a malformed key'), challenge('malformed key: WWW-Authenticate')],
  },
  {
    group: 'auth',
    request: () => ({ ...queryOn(UNKNOWN_WEBSITE), credential: 'key' }),
    checks: [
      {
        check: 'the key on an unknown website',
        expected: '403 ACCESS_DENIED',
        judge: (answer) => ({ ok: answer.status === 403 && codeOf(answer) === 'ACCESS_DENIED', observed: describeAnswer(answer) }),
      },
    ],
  },
];
