import { presentedKey } from '../auth/authenticate.js';
import { identityOf, type Principal } from '../auth/principal.js';
import { DEFAULT_KEY_QUOTA, endpointRule, keyQuotaRule } from '../admission/rules.js';
import { CONTINUE, next, respond, type Exchange, type StageResult } from '../pipeline/exchange.js';
import { refusalAnswer } from './scenario-effects.js';
import { serviceUnavailable } from '../errors.js';
import type { FaultPlan } from './fault-plan.js';

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
export function planFaults(x: Exchange): StageResult | Promise<StageResult> {
  if (!x.principal || x.sim.scenarios.idle()) return CONTINUE;
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
  const learn = (plan: FaultPlan): StageResult => (plan === x.faults ? CONTINUE : next({ faults: plan }));
  return faults instanceof Promise ? faults.then(learn, () => respond(serviceUnavailable(), 'degraded')) : learn(faults);
}

/** Answers for the simulator when a scenario step refuses the request (see `refusalAnswer`). */
export function injectFault(x: Exchange): StageResult {
  const refusal = x.faults.refusal;
  return refusal ? respond(refusalAnswer(refusal.effect, x.now, limitOf(x)), 'scenario') : CONTINUE;
}
