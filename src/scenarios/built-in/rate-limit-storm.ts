import type { ScenarioInput } from '../../contract/scenario.js';

/** A burst of 429s on the query endpoints, as when a shared limit is exhausted by others. */
export const rateLimitStorm: ScenarioInput = {
  name: 'rate-limit-storm',
  description:
    'From 10 s to 70 s after the start, 60% of requests to /v1/query and /v1/query/compile get 429 RATE_LIMITED with Retry-After: 2. Before and after, nothing.',
  steps: ['/v1/query', '/v1/query/compile'].map((route) => ({
    name: `storm on ${route}`,
    start: '10s',
    duration: '60s',
    match: { route, probability: 0.6 },
    effect: { type: 'rate_limit', retryAfterSeconds: 2 },
  })),
};
