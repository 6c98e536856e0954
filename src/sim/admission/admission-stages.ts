import { hashPresented, presentedKey } from '../auth/authenticate.js';
import { identityOf } from '../auth/principal.js';
import { basketError, LIVE_CONCURRENCY_MESSAGE, LIVE_QUOTA_MESSAGE, rateLimited, serviceUnavailable, type SimError } from '../errors.js';
import { followsLive } from '../profile.js';
import { CONTINUE, next, respond, type AdmissionAsk, type Admitted, type Exchange, type StageResult } from '../pipeline/exchange.js';
import { decodesAsRemembered } from '../pipeline/route-stages.js';
import { CONCURRENCY_CAP, endpointRule, keyQuotaRule, type WindowRule } from './rules.js';
import type { CheckedWindow, InFlightSlot } from './limiter.js';
import { retryAfterSeconds, type WindowDecision } from './sliding-log.js';

/** How a refused window is answered: the SPEC 8.4 429 by default. */
type Refuse = (x: Exchange, rule: WindowRule, decision: WindowDecision) => SimError;

/** What an admitted window adds to the request: nothing by default. */
type Admit = (x: Exchange, rule: WindowRule, decision: WindowDecision) => StageResult;

/**
 * The answer when no window could judge the request: 503 SERVICE_UNAVAILABLE, journaled as
 * `degraded` with the store's `failure` (what it threw or rejected with) named.
 */
const degrade = (failure?: unknown): StageResult => respond(serviceUnavailable(failure), 'degraded');

/**
 * Checks one window where limits live (`x.sim.limiter`: memory or a shared store) and records
 * the check: continues when admitted (after `admitted`, given the window's numbers), else
 * answers the refusal (`refuse`, or the SPEC 8.4 429 with `message`). A store failure (a throw
 * or a rejection) becomes 503 SERVICE_UNAVAILABLE, and so does a check no window could judge:
 * the simulator never guesses an admission. Synchronous when the limiter answers
 * synchronously (memory), and then it makes no closure and no promise: `admitted` and `refuse`
 * are module functions handed the exchange and the rule.
 */
function checkWindow(x: Exchange, rule: WindowRule, message: string, admitted?: Admit, refuse?: Refuse): StageResult | Promise<StageResult> {
  let pending;
  try {
    pending = x.sim.limiter.check(rule, x.now);
  } catch (failure) {
    return degrade(failure);
  }
  return pending instanceof Promise ? pending.then((checked) => judge(x, rule, checked, message, admitted, refuse), degrade) : judge(x, rule, pending, message, admitted, refuse);
}

/** A checked window, recorded for the journal, then concluded; none (no window could judge it): 503. */
function judge(x: Exchange, rule: WindowRule, checked: CheckedWindow | null, message: string, admitted?: Admit, refuse?: Refuse): StageResult {
  if (checked === null) return degrade();
  const { decision, order } = checked;
  if (checked.at === undefined) x.checks.push({ rule: rule.rule, id: rule.id, limit: rule.limit, windowMs: rule.windowMs, allowed: decision.allowed, order });
  else x.checks.push({ rule: rule.rule, id: rule.id, limit: rule.limit, windowMs: rule.windowMs, allowed: decision.allowed, order, at: checked.at });
  return conclude(x, rule, decision, message, admitted, refuse);
}

/** Continue (after `admitted`) or refuse, by the window's decision. */
function conclude(x: Exchange, rule: WindowRule, decision: WindowDecision, message: string, admitted?: Admit, refuse?: Refuse): StageResult {
  if (decision.allowed) return admitted ? admitted(x, rule, decision) : CONTINUE;
  const refusal = refuse ? refuse(x, rule, decision) : rateLimited(message, { ...decision, retryAfter: retryAfterSeconds(decision.reset, x.now) });
  return respond(refusal, rule.rule);
}

/** Whether the SPEC 8 limits apply to this request at all. */
function limited(x: Exchange): boolean {
  return x.sim.enforceLimits;
}

/**
 * What the in-flight gate asks where limits live, or null when it lets the request through
 * without asking (limits off, OPTIONS, no well-formed secret presented): the fingerprint's slot
 * under the cap (a scenario's `concurrency` step may lower it) and, when the limiter takes both
 * in one step (a shared store: one round trip), the per-key quota, the next stage.
 */
function admissionAsk(x: Exchange): AdmissionAsk | null {
  if (!limited(x) || x.request.method === 'OPTIONS') return null;
  const fingerprint = presentedFingerprint(x);
  if (fingerprint === undefined) return null;
  const cap = x.faults.concurrencyCap?.cap ?? CONCURRENCY_CAP;
  if (!x.sim.limiter.acquireThenCheck) return { fingerprint, cap, quota: null, endpoint: null };
  return { fingerprint, cap, quota: quotaRule(x), endpoint: null };
}

/**
 * What the gate asks when a shared store is sent it with the request's begin
 * (`handle-request.ts`): {@link admissionAsk}, and the route's per-endpoint window when the
 * request is sure to reach it once the gate and the quota admit it: the stages between
 * (404/405, the body) would let it on without new work (`decodesAsRemembered`). Otherwise
 * the window is checked at its stage.
 */
export function admissionAskAtBegin(x: Exchange): AdmissionAsk | null {
  const ask = admissionAsk(x);
  if (ask === null || !x.sim.limiter.acquireThenCheck) return ask;
  const endpoint = endpointRuleOf(x);
  return endpoint === null || !decodesAsRemembered(x) ? ask : { ...ask, endpoint };
}

/** The matched route's per-endpoint window for the request's identity (SPEC 8.1), or null when none applies. */
function endpointRuleOf(x: Exchange): WindowRule | null {
  const name = x.match.kind === 'found' ? x.match.route.limit : undefined;
  return name && x.principal ? endpointRule(name, x.principal, identityOf(x.principal)) : null;
}

/**
 * SPEC 8.2.2: at most 20 requests in flight per API key, counted by the hash of any
 * well-formed presented secret before the key is resolved. The 21st gets 429 with
 * Retry-After: 1. OPTIONS is exempt; a scenario's `concurrency` step may lower the cap.
 */
export function gateInFlight(x: Exchange): StageResult | Promise<StageResult> {
  if (x.admitted !== null) return judgeAdmitted(x, x.admitted);
  const ask = admissionAsk(x);
  if (ask === null) return CONTINUE;
  const { fingerprint, cap, quota } = ask;
  const { limiter } = x.sim;
  if (quota && limiter.acquireThenCheck) {
    return limiter.acquireThenCheck(fingerprint, cap, quota, x.now).then(
      ({ slot, checked }) => takeSlot(x, fingerprint, cap, slot, checked === undefined ? null : { rule: quota, checked }),
      degrade,
    );
  }
  let pending;
  try {
    pending = limiter.acquire(fingerprint, cap);
  } catch (failure) {
    return degrade(failure);
  }
  return pending instanceof Promise ? pending.then((slot) => takeSlot(x, fingerprint, cap, slot, null), degrade) : takeSlot(x, fingerprint, cap, pending, null);
}

/** The gate's answer the shared store gave with the request's begin, taken as the gate's own. */
function judgeAdmitted(x: Exchange, admitted: Admitted): StageResult {
  if ('failure' in admitted) return degrade(admitted.failure);
  const { fingerprint, cap, quota } = admitted.ask;
  return takeSlot(x, fingerprint, cap, admitted.slot, quota === null || admitted.checked === undefined ? null : { rule: quota, checked: admitted.checked });
}

/** Holds the slot taken (and the quota's check made with it), or refuses the request when the gate was full. */
function takeSlot(x: Exchange, fingerprint: string, cap: number, slot: InFlightSlot, quotaChecked: Exchange['quotaChecked']): StageResult {
  if (!slot.acquired) return refuseInFlight(x, cap, slot.held);
  if (quotaChecked === null) return next({ lease: fingerprint, leaseId: slot.lease, inFlight: slot.held, inFlightCap: cap });
  return next({ lease: fingerprint, leaseId: slot.lease, inFlight: slot.held, inFlightCap: cap, quotaChecked });
}

/**
 * The hash of the well-formed secret the request presents, or undefined. A key authentication
 * resolved was found by that very hash, so it is read from the key, not from the headers again.
 */
function presentedFingerprint(x: Exchange): string | undefined {
  if (x.principal?.kind === 'apikey') return x.principal.key.keyHash;
  const secret = presentedKey(x.request);
  return secret === undefined ? undefined : hashPresented(secret, x.state.hashMemo);
}

/** The 429 of a full in-flight gate: Retry-After 1. */
function refuseInFlight(x: Exchange, cap: number, held: number): StageResult {
  // limit-429-bodies: live sends its own words and no numbers in the body (headers stay).
  const live = followsLive(x.sim.profile, 'limit-429-bodies');
  const message = live ? LIVE_CONCURRENCY_MESSAGE : 'Too many concurrent API key requests';
  return {
    ...respond(rateLimited(message, { limit: cap, remaining: 0, reset: x.now + 1000, retryAfter: 1 }, !live), 'concurrency'),
    with: { inFlight: held, inFlightCap: cap },
  };
}

/**
 * SPEC 8.2.1: the rolling per-key quota, across all endpoints, for keys that have it enabled
 * (or any key while a scenario's `quota` step applies). Admitted responses of such keys carry
 * the X-RateLimit-* headers.
 *
 * `rate-limit-reset`: under `spec` the reset (and a refusal's Retry-After) points at the instant
 * the oldest request leaves the window; under `live` the reset is now + the window on every
 * answer and a refusal says Retry-After: the whole window (`packages/redis/rate-limit.ts`).
 * `limit-429-bodies`: under `live` the refusal's body is `{success, error, code, requestId}`
 * with the live message.
 */
export function enforceKeyQuota(x: Exchange): StageResult | Promise<StageResult> {
  if (!limited(x)) return CONTINUE;
  // Checked with the in-flight slot, in the stage before, from the same principal and faults.
  if (x.quotaChecked !== null) return judge(x, x.quotaChecked.rule, x.quotaChecked.checked, 'API key rate limit exceeded', admitQuota, refuseQuota);
  const rule = quotaRule(x);
  if (!rule) return CONTINUE;
  return checkWindow(x, rule, 'API key rate limit exceeded', admitQuota, refuseQuota);
}

/** The per-key quota that applies to the request: a scenario's `quota` step, else the key's own; null for none (or no key). */
function quotaRule(x: Exchange): WindowRule | null {
  if (x.principal?.kind !== 'apikey') return null;
  const override = x.faults.quota;
  return override ? { rule: 'key_quota', id: `api-key:${x.principal.key.id}`, limit: override.limit, windowMs: override.windowMs } : keyQuotaRule(x.principal.key);
}

/** `rate-limit-reset`: the reset of a quota decision as the profile reports it. */
function quotaReset(x: Exchange, rule: WindowRule, decision: WindowDecision): number {
  return followsLive(x.sim.profile, 'rate-limit-reset') ? x.now + rule.windowMs : decision.reset;
}

/** An admitted quota: its X-RateLimit-* headers on every answer of the request. */
function admitQuota(x: Exchange, rule: WindowRule, decision: WindowDecision): StageResult {
  x.headers['X-RateLimit-Limit'] = String(rule.limit);
  x.headers['X-RateLimit-Remaining'] = String(decision.remaining);
  x.headers['X-RateLimit-Reset'] = String(quotaReset(x, rule, decision));
  return CONTINUE;
}

/** A refused quota: SPEC 8.4's 429, or live's words and no numbers in the body (`limit-429-bodies`). */
function refuseQuota(x: Exchange, rule: WindowRule, decision: WindowDecision): SimError {
  const liveBody = followsLive(x.sim.profile, 'limit-429-bodies');
  const reset = quotaReset(x, rule, decision);
  const window = { ...decision, reset, retryAfter: retryAfterSeconds(reset, x.now) };
  return rateLimited(liveBody ? LIVE_QUOTA_MESSAGE : 'API key rate limit exceeded', window, !liveBody);
}

/** SPEC 8.1: the matched route's per-endpoint limit per identity, before access checks and validation. */
export function enforceEndpointLimit(x: Exchange): StageResult | Promise<StageResult> {
  if (!limited(x)) return CONTINUE;
  const ahead = endpointCheckedAhead(x);
  if (ahead !== null) return judge(x, ahead.rule, ahead.checked, 'Rate limit exceeded');
  const rule = endpointRuleOf(x);
  return rule === null ? CONTINUE : checkWindow(x, rule, 'Rate limit exceeded');
}

/** The per-endpoint window checked ahead with the slot and the quota, in the request's begin (a shared store), or null. */
function endpointCheckedAhead(x: Exchange): { readonly rule: WindowRule; readonly checked: CheckedWindow } | null {
  const ahead = x.admitted;
  if (ahead === null || 'failure' in ahead || ahead.endpointChecked === undefined || ahead.ask.endpoint === null) return null;
  return { rule: ahead.ask.endpoint, checked: ahead.endpointChecked };
}

/**
 * A route's own window, once its `authorize` has said who the caller is: SPEC 8.3, 600
 * `/track` requests per 60 s per API key, or per website and client IP. 429 "Rate limit
 * exceeded" with the SPEC 8.4 body and headers; under `live` (`track-errors`) the ingestion
 * service's `basket.TRACK_RATE_LIMITED` envelope, which sends no rate-limit headers.
 */
export function enforceRouteWindow(x: Exchange): StageResult | Promise<StageResult> {
  const route = x.match.kind === 'found' ? x.match.route : undefined;
  if (!limited(x) || !route?.windowRule) return CONTINUE;
  const rule = route.windowRule(x.access);
  if (!rule) return CONTINUE;
  if (rule.rule === 'ingest_limit' && followsLive(x.sim.profile, 'track-errors')) {
    return checkWindow(x, rule, 'Rate limit exceeded', undefined, refuseInBasket);
  }
  return checkWindow(x, rule, 'Rate limit exceeded');
}

/** The ingestion service's refusal of a window: its `basket` envelope, no rate-limit headers. */
function refuseInBasket(_x: Exchange, rule: WindowRule): SimError {
  return basketError(rule.basketKey ?? 'TRACK_RATE_LIMITED');
}
