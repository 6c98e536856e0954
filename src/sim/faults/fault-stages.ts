import { presentedKey } from '../auth/authenticate.js';
import { identityOf, type Principal } from '../auth/principal.js';
import { DEFAULT_KEY_QUOTA, endpointRule, keyQuotaRule } from '../admission/rules.js';
import { injectedError, rateLimited, serviceUnavailable } from '../errors.js';
import { CONTINUE, next, respond, type Exchange, type StageResult } from '../pipeline/exchange.js';

/**
 * The limit a scenario's 429 reports when the step names none: the matched route's
 * per-endpoint limit for this caller, else the key's own quota, else the default key quota.
 */
function limitOf(x: Exchange): number {
  const principal = x.principal as Principal;
  const endpoint = x.match.kind === 'found' ? x.match.route.limit : undefined;
  if (endpoint) return endpointRule(endpoint, principal, identityOf(principal)).limit;
  if (principal.kind === 'apikey') return keyQuotaRule(principal.key)?.limit ?? DEFAULT_KEY_QUOTA.limit;
  return DEFAULT_KEY_QUOTA.limit;
}

/** Asks the active scenarios what they do to this request (once: probabilities are drawn here). */
export function planFaults(x: Exchange): StageResult {
  if (!x.principal) return CONTINUE;
  const faults = x.sim.scenarios.plan(
    {
      method: x.request.method,
      path: x.request.path,
      keyId: x.principal.kind === 'apikey' ? x.principal.key.id : null,
      presentsKey: presentedKey(x.request) !== undefined,
      websiteId: x.request.query.website_id ?? null,
      identity: identityOf(x.principal),
    },
    x.now,
  );
  return faults === x.faults ? CONTINUE : next({ faults });
}

/**
 * Answers for the simulator when a scenario step refuses the request: its 429 (with the SPEC
 * 8.4 body), a 503 outage, an error of its choosing, or a dropped connection.
 */
export function injectFault(x: Exchange): StageResult {
  const refusal = x.faults.refusal;
  if (!refusal) return CONTINUE;
  const effect = refusal.effect;
  switch (effect.type) {
    case 'rate_limit':
      return respond(
        rateLimited('Rate limit exceeded', {
          limit: effect.limit ?? limitOf(x),
          remaining: 0,
          reset: x.now + effect.retryAfterSeconds * 1000,
          retryAfter: effect.retryAfterSeconds,
        }),
        'scenario',
      );
    case 'outage':
      return respond(serviceUnavailable(), 'scenario');
    case 'error':
      return respond(injectedError(effect.status, effect.code, effect.message, effect.retryAfterSeconds), 'scenario');
    case 'reset':
      return respond({ drop: true }, 'scenario');
  }
}
