import type { ScenarioInput } from '../../contract/scenario.js';

/** Normal operation with the small, slightly uneven latency of a healthy service. */
export const steady: ScenarioInput = {
  name: 'steady',
  description: 'Healthy service: every API request takes about 30 ms (log-normal, sigma 0.3, at most 200 ms). Nothing fails.',
  steps: [
    {
      name: 'healthy latency',
      match: { route: '/v1/*' },
      effect: { type: 'latency', delay: { distribution: 'lognormal', medianMs: 30, sigma: 0.3, maxMs: 200 } },
    },
  ],
};
