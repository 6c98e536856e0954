import type { ScenarioInput } from '../../contract/scenario.js';

/** Most answers are quick, a few are very slow: the tail that breaks naive timeouts. */
export const slowTail: ScenarioInput = {
  name: 'slow-tail',
  description:
    'While it runs, /v1/query answers take log-normal time with a 50 ms median and sigma 1.2 (p99 about 800 ms, capped at 5 s); 2% of them take 3 s more.',
  steps: [
    {
      name: 'log-normal latency',
      match: { route: '/v1/query' },
      effect: { type: 'latency', delay: { distribution: 'lognormal', medianMs: 50, sigma: 1.2, maxMs: 5000 } },
    },
    {
      name: 'stragglers',
      match: { route: '/v1/query', probability: 0.02 },
      effect: { type: 'latency', delay: { distribution: 'fixed', ms: 3000 } },
    },
  ],
};
