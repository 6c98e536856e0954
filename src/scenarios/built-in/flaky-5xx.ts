import type { ScenarioInput } from '../../contract/scenario.js';

/** A service that fails now and then, for as long as the scenario runs. */
export const flaky5xx: ScenarioInput = {
  name: 'flaky-5xx',
  description:
    'While it runs, each request under /v1/ gets 500 INTERNAL_SERVER_ERROR with probability 8%, else 502 BAD_GATEWAY with 2%, else has its connection reset without an answer with 1% (about 10.7% fail in all).',
  steps: [
    {
      name: 'internal errors',
      match: { route: '/v1/*', probability: 0.08 },
      effect: { type: 'error', status: 500, code: 'INTERNAL_SERVER_ERROR', message: 'Something went wrong on our side. Try again in a moment.' },
    },
    {
      name: 'bad gateway',
      match: { route: '/v1/*', probability: 0.02 },
      effect: { type: 'error', status: 502, code: 'BAD_GATEWAY', message: 'The upstream service did not answer. Try again in a moment.' },
    },
    { name: 'resets', match: { route: '/v1/*', probability: 0.01 }, effect: { type: 'reset' } },
  ],
};
