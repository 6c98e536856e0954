import type { ScenarioInput } from '../../contract/scenario.js';

/** The admission layer is down for a minute: every API request gets 503. */
export const outageWindow: ScenarioInput = {
  name: 'outage-window',
  description: 'From 30 s to 90 s after the start, every request under /v1/ gets 503 SERVICE_UNAVAILABLE with Retry-After: 5.',
  steps: [{ name: 'outage', start: '30s', duration: '60s', match: { route: '/v1/*' }, effect: { type: 'outage' } }],
};
