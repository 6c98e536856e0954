/**
 * Which behaviour the simulator follows where SPEC.md and the live service differ: `spec`
 * (the default) follows SPEC.md where it is explicit, `live` follows the live service.
 */
export type Profile = 'spec' | 'live';

/** The profiles, the default first. */
export const PROFILES = ['spec', 'live'] as const satisfies readonly Profile[];

/**
 * One named difference between the two profiles: what `spec` does (SPEC.md, where it is
 * explicit) and what `live` does (the live service). Every difference is one entry here; code
 * that differs asks {@link followsLive} with the switch's name, and the README table lists them.
 */
export interface ProfileSwitch {
  readonly name: SwitchName;
  readonly spec: string;
  readonly live: string;
}

/** The names of the switches. */
export type SwitchName = (typeof PROFILE_SWITCHES)[number]['name'];

/** Every difference between `spec` and `live`, in the order the README lists them. */
export const PROFILE_SWITCHES = [
  {
    name: 'row-shapes',
    spec: 'summary_metrics answers one row per day (date, pageviews, visitors, sessions, …); top_pages rows name the page path',
    live: 'summary_metrics answers one total row (pageviews, unique_visitors, …); top_pages rows name the page name',
  },
  {
    name: 'types-meta',
    spec: '/types meta has camelCase outputFields (names) and defaultVisualization; every config has customizable and defaultLimit',
    live: "/types meta is the live builder's: output_fields objects (name, type, label, unit), default_visualization, tags; customizable and defaultLimit only where the builder sets them",
  },
  {
    name: 'default-limit',
    spec: "a query without limit pages each type by its defaultLimit; meta.limit reports it",
    live: 'a query without limit pages every type by 100, as the live route sends limit || 100',
  },
  {
    name: 'public-types',
    spec: 'the older public list (54 types, with timezone, language, custom events, error and vitals types) is readable without a credential on a public website',
    live: "the current public list (23 overview types); every other type needs the website's permission",
  },
  {
    name: 'public-policy',
    spec: 'a public website answers its public types to anybody, whatever the filters; /compile always needs a credential',
    live: "the newest public policy: an anonymous caller on a public website runs only unfiltered queries of public types (any filter in any batch item is 401 for the whole request), /compile follows the same rule (the type and its filters), and a caller without the website's permission gets 403 for a filtered query as for a private type",
  },
  {
    name: 'rate-limit-reset',
    spec: 'X-RateLimit-Reset and Retry-After of the per-key quota point at the instant the oldest request leaves the window',
    live: 'X-RateLimit-Reset is now + the window on every answer; a quota 429 says Retry-After: the whole window',
  },
  {
    name: 'limit-429-bodies',
    spec: 'quota and concurrency 429 bodies carry limit, remaining, reset and retryAfter (SPEC 8.4)',
    live: "quota and concurrency 429 bodies are {success, error, code, requestId} with live's messages",
  },
  {
    name: 'auth-codes',
    spec: 'a credential without the needed scope gets 403 FORBIDDEN; WWW-Authenticate: Bearer realm="analytics-sim"',
    live: "live's codes on /v1/query*: a key without read:data or read:monitors is no credential (401 AUTH_REQUIRED), a key without read:monitors on a monitor 403 ACCESS_DENIED, a monitors-only key reads websites (its /websites list is empty); 401s carry no hint and WWW-Authenticate: Bearer resource_metadata=…",
  },
  {
    name: 'track-errors',
    spec: '/track errors use the API error body {success, error, code, requestId, details}',
    live: "every /track refusal uses the ingestion envelope {success, status, error, message, code, retryable, requestId, why, fix, errors[{code, field: '0.name', message}]}: code basket.<KEY> for the catalogue's errors, its own code otherwise (PARSE for malformed JSON); the 600/60 s window's 429 sends no rate-limit headers",
  },
  {
    name: 'validation',
    spec: 'an impossible date, a start after the end and hourly over 30 days are refused with 400; /compile of an unknown type is 400 COMPILATION_ERROR; a batch holds at most 50 queries; a refused batch lists the details of every invalid query',
    live: 'as live, each with a Warning: impossible dates and inverted ranges fail the parameter ("Query execution failed"), hourly over 30 days fails the parameter (a 500 on the service for a single query: the simulator never answers 500 for bad input), an unknown /compile type is 422 VALIDATION, no batch size cap of 50 (only the simulator’s own 1000), a refused batch lists only the first invalid query’s details (the Warning names the others)',
  },
  {
    name: 'page-bounds',
    spec: '/v1/query limit 0 or over 10000 and page 0 are refused by the route with 400 VALIDATION_ERROR ("Limit must be at least 1", …); a fractional limit or page is 422 VALIDATION',
    live: "the newest body schema's integer bounds: limit 0, limit 10001, limit 1.5, page 0 and page 1.5 are all 422 VALIDATION, ahead of the route's own checks (reach, plan gate, dates)",
  },
  {
    name: 'duplicate-ids',
    spec: 'a query answers one data entry for each requested parameter, two parameters of the same id (or name) included (SPEC 4.4)',
    live: 'parameters that share a result name (their id, else their type name) answer one entry, as the service keeps results in a Map keyed by it: in the first one’s place, with the last one’s result; a Warning names the parameters folded',
  },
  {
    name: 'plan-gate',
    spec: 'the 402 plan gate (error tracking on the free plan) applies to website_id queries of the eight gated error types only',
    live: 'the 402 plan gate applies at every website scope (website_id, organization_id, and no id with an organization implied) and gates error_fingerprints too',
  },
  {
    name: 'missing-user-agent',
    spec: 'an ingestion request without a User-Agent (or with a blank one) is taken like a person’s, with a Warning that the live service would block it',
    live: 'an ingestion request without a User-Agent (or with a blank one) is blocked as a bot, as the service’s detector does (blockMissingUserAgent): 204 with an empty body, "Bot detected" per item on /batch, the GIF on /px.jpg, nothing stored and no limit used; a Warning says why',
  },
] as const satisfies readonly { name: string; spec: string; live: string }[];

/** Whether `profile` follows the live service on `switchName` (spec otherwise). */
export function followsLive(profile: Profile, switchName: SwitchName): boolean {
  void switchName;
  return profile === 'live';
}

/** Parses a profile name; null for anything else. */
export function parseProfile(value: string): Profile | null {
  return (PROFILES as readonly string[]).includes(value) ? (value as Profile) : null;
}
