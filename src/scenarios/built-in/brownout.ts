import type { ScenarioInput } from '../../contract/scenario.js';

/** Several faults overlapping: the service degrades, partly fails, and sheds load. */
export const brownout: ScenarioInput = {
  name: 'brownout',
  description:
    'From 0 to 100 s every /v1/ answer takes 100–400 ms (uniform); from 20 s to 80 s 20% of them get 503 SERVICE_UNAVAILABLE; from 40 s to 100 s 25% get 429 with Retry-After: 3. Where both refuse, the 503 wins.',
  steps: [
    {
      name: 'slow',
      duration: '100s',
      match: { route: '/v1/*' },
      effect: { type: 'latency', delay: { distribution: 'uniform', minMs: 100, maxMs: 400 } },
    },
    { name: 'partial outage', start: '20s', duration: '60s', match: { route: '/v1/*', probability: 0.2 }, effect: { type: 'outage' } },
    {
      name: 'load shedding',
      start: '40s',
      duration: '60s',
      match: { route: '/v1/*', probability: 0.25 },
      effect: { type: 'rate_limit', retryAfterSeconds: 3 },
    },
  ],
};
