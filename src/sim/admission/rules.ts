import type { Principal } from '../auth/principal.js';
import type { ApiKeyRecord } from '../model/entities.js';
import type { BasketErrorKey } from '../errors.js';

/** The rules that can refuse a request, as the journal names them. */
export const ADMISSION_RULES = ['concurrency', 'key_quota', 'endpoint_limit', 'ingest_limit', 'degraded'] as const;

/** One of {@link ADMISSION_RULES}. */
export type AdmissionRule = (typeof ADMISSION_RULES)[number];

/** A sliding-window rule applied to one identity. */
export interface WindowRule {
  readonly rule: Exclude<AdmissionRule, 'concurrency' | 'degraded'>;
  /** The store key: the rule's namespace and the identity. */
  readonly id: string;
  readonly limit: number;
  readonly windowMs: number;
  /**
   * The ingestion service's catalogue key of the refusal (an `ingest_limit` window under `live`,
   * or on a route that always answers in that envelope); `TRACK_RATE_LIMITED` when absent.
   */
  readonly basketKey?: BasketErrorKey;
}

/** SPEC 8.2.2: requests in flight per API key. */
export const CONCURRENCY_CAP = 20;

/** SPEC 8.2.1: the rolling per-key quota when a key has none of its own. */
export const DEFAULT_KEY_QUOTA = { limit: 300, windowSeconds: 60 } as const;

/** SPEC 8.1: per-endpoint limits per identity, a minute each. */
export const ENDPOINT_LIMITS = {
  'query:execute': { authenticated: 120, anonymous: 60, windowMs: 60_000 },
  'query:compile': { authenticated: 300, anonymous: 60, windowMs: 60_000 },
} as const;

/** A per-endpoint limit a route can name. */
export type EndpointLimitName = keyof typeof ENDPOINT_LIMITS;

/** SPEC 8.3: ingestion requests per API key, or per website and client IP. */
export const INGEST_LIMIT = { limit: 600, windowMs: 60_000 } as const;

const positiveInteger = (value: number | null): value is number => value !== null && Number.isInteger(value) && value > 0;

/** Each key record's quota rule, made once: records are frozen and replaced, never changed. */
const quotaRules = new WeakMap<ApiKeyRecord, WindowRule | null>();

/**
 * The rolling quota of a key, or null when the key does not have it enabled. A custom limit
 * or window that is not a positive integer falls back to the default, as the service does.
 * The same record always gets the same (frozen) rule.
 */
export function keyQuotaRule(key: ApiKeyRecord): WindowRule | null {
  let rule = quotaRules.get(key);
  if (rule === undefined) {
    rule = makeKeyQuotaRule(key);
    quotaRules.set(key, rule);
  }
  return rule;
}

function makeKeyQuotaRule(key: ApiKeyRecord): WindowRule | null {
  if (!key.rateLimitEnabled) return null;
  const limit = positiveInteger(key.rateLimitMax) ? key.rateLimitMax : DEFAULT_KEY_QUOTA.limit;
  const seconds = positiveInteger(key.rateLimitTimeWindow) ? key.rateLimitTimeWindow : DEFAULT_KEY_QUOTA.windowSeconds;
  return Object.freeze({ rule: 'key_quota', id: `api-key:${key.id}`, limit, windowMs: seconds * 1000 });
}

/** The per-endpoint rules of API keys, by key record and limit name, made once. */
const endpointRulesOfKeys = new WeakMap<ApiKeyRecord, Map<EndpointLimitName, WindowRule>>();

/**
 * The per-endpoint limit of a principal; anonymous callers get min(limit, 60). An API key's
 * rule is made once per key record and limit name (the hot path of many keys builds no string).
 */
export function endpointRule(name: EndpointLimitName, principal: Principal, identity: string): WindowRule {
  if (principal.kind !== 'apikey') return makeEndpointRule(name, principal, identity);
  let rules = endpointRulesOfKeys.get(principal.key);
  if (rules === undefined) {
    rules = new Map();
    endpointRulesOfKeys.set(principal.key, rules);
  }
  let rule = rules.get(name);
  if (rule === undefined) {
    rule = makeEndpointRule(name, principal, identity);
    rules.set(name, rule);
  }
  return rule;
}

function makeEndpointRule(name: EndpointLimitName, principal: Principal, identity: string): WindowRule {
  const spec = ENDPOINT_LIMITS[name];
  const limit = principal.kind === 'anonymous' ? Math.min(spec.authenticated, spec.anonymous) : spec.authenticated;
  return Object.freeze({ rule: 'endpoint_limit', id: `query:${name.split(':')[1]}:${identity}`, limit, windowMs: spec.windowMs });
}

/** The ingestion limit: per key (`track:apikey:<id>`), else per website and client IP. */
export function ingestRule(keyId: string | null, websiteId: string | null, ip: string): WindowRule {
  const id = keyId !== null ? `track:apikey:${keyId}` : `track:website:${websiteId ?? 'none'}:${ip}`;
  return { rule: 'ingest_limit', id, limit: INGEST_LIMIT.limit, windowMs: INGEST_LIMIT.windowMs };
}

/** `/identify`: 600 per 60 s per API key; 60 per 60 s per client id and IP without one. */
export const IDENTIFY_RATE_LIMITS = { perKey: 600, perClient: 60, windowMs: 60_000 } as const;

/** The `/identify` window: per key (`identify:apikey:<id>`), else per client id and client IP. */
export function identifyRule(keyId: string | null, clientId: string, ip: string): WindowRule {
  return keyId !== null
    ? { rule: 'ingest_limit', id: `identify:apikey:${keyId}`, limit: IDENTIFY_RATE_LIMITS.perKey, windowMs: IDENTIFY_RATE_LIMITS.windowMs, basketKey: 'IDENTIFY_RATE_LIMITED' }
    : { rule: 'ingest_limit', id: `identify:${clientId}:${ip}`, limit: IDENTIFY_RATE_LIMITS.perClient, windowMs: IDENTIFY_RATE_LIMITS.windowMs, basketKey: 'IDENTIFY_RATE_LIMITED' };
}

/** `/mcp`: 6000 requests per 60 s per API key. */
export const MCP_LIMIT = { limit: 6000, windowMs: 60_000 } as const;

/** The `/mcp` window of a key (`mcp:apikey:<id>`). */
export function mcpRule(keyId: string): WindowRule {
  return { rule: 'ingest_limit', id: `mcp:apikey:${keyId}`, limit: MCP_LIMIT.limit, windowMs: MCP_LIMIT.windowMs, basketKey: 'TRACK_RATE_LIMITED' };
}
