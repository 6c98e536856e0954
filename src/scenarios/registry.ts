import { scenarioSchema, type Scenario } from '../contract/scenario.js';
import { brownout } from './built-in/brownout.js';
import { concurrencySqueeze } from './built-in/concurrency-squeeze.js';
import { flaky5xx } from './built-in/flaky-5xx.js';
import { outageWindow } from './built-in/outage-window.js';
import { quotaCrunch } from './built-in/quota-crunch.js';
import { rateLimitStorm } from './built-in/rate-limit-storm.js';
import { slowTail } from './built-in/slow-tail.js';
import { steady } from './built-in/steady.js';

/**
 * The built-in scenarios, validated once. Times are offsets from the moment a scenario starts,
 * on the simulator clock.
 */
export const BUILT_IN_SCENARIOS: readonly Scenario[] = [
  steady,
  rateLimitStorm,
  outageWindow,
  flaky5xx,
  slowTail,
  concurrencySqueeze,
  brownout,
  quotaCrunch,
].map((input) => scenarioSchema.parse(input));
