import type { ScenarioInput } from '../../contract/scenario.js';

/** Fewer requests may be in flight per key, and each takes longer, so the cap bites. */
export const concurrencySqueeze: ScenarioInput = {
  name: 'concurrency-squeeze',
  description:
    'For 120 s from the start, each API key may have at most 5 requests in flight (instead of 20), and every /v1/ answer takes 200 ms, so parallel clients meet 429 "Too many concurrent API key requests" with Retry-After: 1.',
  steps: [
    { name: 'lower cap', duration: '120s', match: { route: '/v1/*' }, effect: { type: 'concurrency', cap: 5 } },
    {
      name: 'slower answers',
      duration: '120s',
      match: { route: '/v1/*' },
      effect: { type: 'latency', delay: { distribution: 'fixed', ms: 200 } },
    },
  ],
};
