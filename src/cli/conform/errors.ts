import { describeAnswer } from './client.js';
import { SHAPE_PRESET } from './expectations.js';
import { codeOf, detailsOf, type Probe, type ProbeCheck } from './probe.js';
import type { ConformOptions } from './options.js';

/** `status code`, as the live route answers it. */
const refusedWith = (check: string, status: number, code: string): ProbeCheck => ({
  check,
  expected: `${status} ${code}`,
  judge: (answer) => ({ ok: answer.status === status && codeOf(answer) === code, observed: describeAnswer(answer) }),
});

/** The website to ask about: the one given, else none (a global key falls back to its organization). */
const on = (options: ConformOptions) => (options.website !== undefined ? { website_id: options.website } : {});

/** A misspelt type, one edit from a live one. */
const MISSPELT = 'summry_metrics';

/** The errors group: how the live route refuses a bad query (live-fidelity.md 3.7, observed-service.md 5.1). */
export const ERROR_PROBES: readonly Probe[] = [
  {
    group: 'errors',
    request: (options) => ({ method: 'POST', path: '/v1/query', query: on(options), body: { parameters: [MISSPELT], preset: SHAPE_PRESET }, credential: 'key' }),
    checks: [
      refusedWith(`an unknown type (${MISSPELT})`, 400, 'VALIDATION_ERROR'),
      {
        check: 'the unknown type: a did-you-mean',
        expected: "details parameters[0] suggests 'summary_metrics'",
        judge: (answer) => {
          const detail = detailsOf(answer).find((d) => d.field === 'parameters[0]');
          const suggestion = typeof detail?.suggestion === 'string' ? detail.suggestion : undefined;
          const error = (answer.json as { error?: unknown } | undefined)?.error;
          const ok = suggestion !== undefined && suggestion.includes('summary_metrics') && typeof error === 'string' && error.includes('summary_metrics');
          if (suggestion !== undefined) return { ok, observed: `${detail?.field}: ${suggestion}` };
          return { ok: false, observed: detail ? `${String(detail.field)} without a suggestion` : `no parameters[0] detail (${describeAnswer(answer)})` };
        },
      },
    ],
  },
  {
    group: 'errors',
    request: (options) => ({ method: 'POST', path: '/v1/query', query: on(options), body: { raw: '{"parameters": ["summary_metrics"], ' }, credential: 'key' }),
    checks: [refusedWith('malformed JSON', 400, 'PARSE')],
  },
  {
    group: 'errors',
    request: (options) => ({ method: 'POST', path: '/v1/query', query: on(options), body: { parameters: ['summary_metrics'] }, credential: 'key' }),
    checks: [
      refusedWith('no dates and no preset', 400, 'VALIDATION_ERROR'),
      {
        check: 'no dates: the details',
        expected: 'details startDate and endDate',
        judge: (answer) => {
          const fields = detailsOf(answer).map((d) => String(d.field));
          const ok = fields.includes('startDate') && fields.includes('endDate');
          return { ok, observed: fields.length > 0 ? `details ${fields.join(', ')}` : `no details (${describeAnswer(answer)})` };
        },
      },
    ],
  },
];
