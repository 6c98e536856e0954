import { identityOf } from '../auth/principal.js';
import { ENDPOINT_LIMITS, DEFAULT_KEY_QUOTA } from '../admission/rules.js';
import { injectedError, rateLimited, serviceUnavailable } from '../errors.js';
import type { Exchange, StageResult } from '../pipeline.js';

/** The limit a scenario's 429 reports when the step names none: the route's own. */
function limitOf(path: string): number {
  if (path === '/v1/query') return ENDPOINT_LIMITS['query:execute'].authenticated;
  if (path === '/v1/query/compile') return ENDPOINT_LIMITS['query:compile'].authenticated;
  return DEFAULT_KEY_QUOTA.limit;
}

/** Asks the active scenarios what they do to this request (once: probabilities are drawn here). */
export function planFaults(x: Exchange): StageResult {
  if (x.control || !x.principal) return undefined;
  x.faults = x.sim.scenarios.plan(
    {
      method: x.request.method,
      path: x.request.path,
      keyId: x.principal.kind === 'apikey' ? x.principal.key.id : null,
      websiteId: x.request.query.website_id ?? null,
      identity: identityOf(x.principal),
    },
    x.now,
  );
  return undefined;
}

/**
 * Answers for the simulator when a scenario step refuses the request: its 429 (with the SPEC
 * 8.4 body), a 503 outage, an error of its choosing, or a dropped connection.
 */
export function injectFault(x: Exchange): StageResult {
  const refusal = x.faults.refusal;
  if (!refusal) return undefined;
  x.refusedBy = 'scenario';
  const effect = refusal.effect;
  switch (effect.type) {
    case 'rate_limit':
      return rateLimited('Rate limit exceeded', {
        limit: effect.limit ?? limitOf(x.request.path),
        remaining: 0,
        reset: x.now + effect.retryAfterSeconds * 1000,
        retryAfter: effect.retryAfterSeconds,
      });
    case 'outage':
      return serviceUnavailable();
    case 'error':
      return injectedError(effect.status, effect.code, effect.message, effect.retryAfterSeconds);
    case 'reset':
      return { drop: true };
  }
}
