import { hashPresented, isWellFormedKey, presentedKey } from '../auth/authenticate.js';
import { identityOf } from '../auth/principal.js';
import { rateLimited, serviceUnavailable, type SimError } from '../errors.js';
import type { Journal } from '../journal/journal.js';
import type { Exchange, StageResult } from '../pipeline.js';
import type { InFlightGate } from './in-flight-gate.js';
import { CONCURRENCY_CAP, endpointRule, keyQuotaRule, type WindowRule } from './rules.js';
import { retryAfterSeconds, type WindowDecision } from './sliding-log.js';
import type { AdmissionStore } from './store.js';

/** The admission machinery a simulator owns. */
export interface Admission {
  readonly store: AdmissionStore;
  readonly gate: InFlightGate;
  readonly journal: Journal;
}

type WindowOutcome = SimError | WindowDecision;

/**
 * Checks one window in the store and records the check. A store failure (a throw or a
 * rejection) becomes 503 SERVICE_UNAVAILABLE: the simulator never guesses an admission.
 * Synchronous when the store answers synchronously, so the in-memory path allocates no promise.
 */
function checkWindow(x: Exchange, rule: WindowRule, message: string): WindowOutcome | Promise<WindowOutcome> {
  const order = x.sim.admission.journal.nextCheck();
  const decide = (decision: WindowDecision): WindowOutcome => {
    x.checks.push({ rule: rule.rule, id: rule.id, limit: rule.limit, windowMs: rule.windowMs, allowed: decision.allowed, order });
    if (decision.allowed) return decision;
    x.refusedBy = rule.rule;
    return rateLimited(message, { ...decision, retryAfter: retryAfterSeconds(decision.reset, x.now) });
  };
  const degrade = (): WindowOutcome => {
    x.refusedBy = 'degraded';
    return serviceUnavailable();
  };
  let pending;
  try {
    pending = x.sim.admission.store.consume(rule.id, x.now, rule.limit, rule.windowMs);
  } catch {
    return degrade();
  }
  return pending instanceof Promise ? pending.then(decide, degrade) : decide(pending);
}

/** Applies `then` to a value now, or to a promise when it resolves. */
function after<T, R>(value: T | Promise<T>, then: (v: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(then) : then(value);
}

/**
 * SPEC 8.2.2: at most 20 requests in flight per API key, counted by the hash of any
 * well-formed presented secret before the key is resolved. The 21st gets 429 with
 * Retry-After: 1. OPTIONS and the control plane are exempt.
 */
export function gateInFlight(x: Exchange): StageResult {
  if (x.control || !x.sim.enforceLimits || x.request.method === 'OPTIONS') return undefined;
  const secret = presentedKey(x.request);
  if (secret === undefined || !isWellFormedKey(secret)) return undefined;
  const fingerprint = hashPresented(secret, x.state.hashMemo);
  const cap = x.faults.concurrencyCap?.cap ?? CONCURRENCY_CAP;
  const { acquired, held } = x.sim.admission.gate.acquire(fingerprint, cap);
  x.inFlight = held;
  x.inFlightCap = cap;
  if (!acquired) {
    x.refusedBy = 'concurrency';
    return rateLimited('Too many concurrent API key requests', { limit: cap, remaining: 0, reset: x.now + 1000, retryAfter: 1 });
  }
  x.lease = fingerprint;
  return undefined;
}

/**
 * SPEC 8.2.1: the rolling per-key quota, across all endpoints, for keys that have it enabled
 * (or any key while a scenario's `quota` step applies). Admitted responses of such keys carry
 * the X-RateLimit-* headers.
 */
export function enforceKeyQuota(x: Exchange): StageResult | Promise<StageResult> {
  if (x.control || !x.sim.enforceLimits || x.principal?.kind !== 'apikey') return undefined;
  const override = x.faults.quota;
  const rule: WindowRule | null = override
    ? { rule: 'key_quota', id: `api-key:${x.principal.key.id}`, limit: override.limit, windowMs: override.windowMs }
    : keyQuotaRule(x.principal.key);
  if (!rule) return undefined;
  return after(checkWindow(x, rule, 'API key rate limit exceeded'), (result) => {
    if ('code' in result) return result;
    x.headers['X-RateLimit-Limit'] = String(rule.limit);
    x.headers['X-RateLimit-Remaining'] = String(result.remaining);
    x.headers['X-RateLimit-Reset'] = String(result.reset);
    return undefined;
  });
}

/** SPEC 8.1: the per-endpoint limit per identity, before access checks and validation. */
export function enforceEndpointLimit(x: Exchange): StageResult | Promise<StageResult> {
  const name = x.route?.limit;
  if (x.control || !x.sim.enforceLimits || !name || !x.principal) return undefined;
  return after(checkWindow(x, endpointRule(name, x.principal, identityOf(x.principal)), 'Rate limit exceeded'), (result) =>
    'code' in result ? result : undefined,
  );
}

/**
 * A route's own window, once its `authorize` has said who the caller is: SPEC 8.3, 600
 * `/track` requests per 60 s per API key, or per website and client IP. 429 "Rate limit
 * exceeded" with the SPEC 8.4 body and headers.
 */
export function enforceRouteWindow(x: Exchange): StageResult | Promise<StageResult> {
  if (x.control || !x.sim.enforceLimits || !x.route?.windowRule) return undefined;
  const rule = x.route.windowRule(x.access);
  if (!rule) return undefined;
  return after(checkWindow(x, rule, 'Rate limit exceeded'), (result) => ('code' in result ? result : undefined));
}
