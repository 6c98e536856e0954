import { authenticate } from './auth/authenticate.js';
import type { Principal } from './auth/principal.js';
import { issueDetails } from './decode-body.js';
import {
  forbiddenOrigin,
  methodNotAllowed,
  parseError,
  payloadTooLarge,
  routeNotFound,
  schemaValidation,
  unsupportedMediaType,
  type SimError,
} from './errors.js';
import { MAX_BODY_BYTES, type SimRequest } from './messages.js';
import { isError, type Reply, type Route, type RouteContext, type SimulatorCore } from './route.js';
import type { RouteMatch } from './router.js';
import type { AdmissionRule } from './admission/rules.js';
import { enforceEndpointLimit, enforceKeyQuota, enforceRouteWindow, gateInFlight } from './admission/admission-stages.js';
import type { WindowCheck } from './journal/journal.js';
import { injectFault, planFaults } from './faults/fault-stages.js';
import { applyCors } from './cors/cors-stage.js';
import type { FaultPlan } from './faults/scenario-runner.js';
import type { SimState } from './state.js';

/** One request in flight through the pipeline; each stage fills in what it decides. */
export interface Exchange {
  readonly request: SimRequest;
  readonly requestId: string;
  readonly now: number;
  readonly sim: SimulatorCore;
  readonly state: SimState;
  readonly match: (method: string, path: string) => RouteMatch;
  /** True for `/__sim` requests: no admission rules, no journal entry. */
  readonly control: boolean;
  /** Headers every outcome of this request carries (X-RateLimit-* of an admitted quota). */
  readonly headers: Record<string, string>;
  /** Window checks made, for the journal. */
  readonly checks: WindowCheck[];
  /** The in-flight slot this request holds (the key's fingerprint), if any. */
  lease: string | null;
  inFlight: number | null;
  inFlightCap: number | null;
  /** The rule that refused the request, if one did (`scenario` for an injected fault). */
  refusedBy: AdmissionRule | 'scenario' | null;
  /** What the active scenarios decided for this request. */
  faults: FaultPlan;
  principal?: Principal;
  route?: Route;
  params?: Record<string, string>;
  body?: unknown;
  access?: unknown;
  input?: unknown;
}

/** Ends a request by dropping the connection without an answer (a scenario's `reset`). */
export interface Drop {
  readonly drop: true;
}

/** What a stage decides: go on (undefined), or end with a reply, a refusal or a dropped connection. */
export type StageResult = Reply | SimError | Drop | undefined;

/** One step of the pipeline. Stages that touch the admission store may be asynchronous. */
export type Stage = (exchange: Exchange) => StageResult | Promise<StageResult>;

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;
const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127(?:\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;

/**
 * Keeps web pages away from the control plane: a cross-site page may not call `/__sim` (its
 * Origin must be a loopback one), bodies must be declared JSON (so a browser must preflight),
 * and, when the simulator guards its host, the Host header must be a loopback name (against
 * DNS rebinding).
 */
const guardControlPlane: Stage = (x) => {
  if (!x.control) return undefined;
  const { origin, host } = x.request.headers;
  if (origin !== undefined && origin !== 'null' && !LOOPBACK_ORIGIN.test(origin)) {
    return forbiddenOrigin('The control plane answers only pages served from this machine (a loopback Origin).');
  }
  if (origin === 'null') return forbiddenOrigin('The control plane does not answer opaque (null) origins.');
  if (x.sim.guardHost && host !== undefined && !LOOPBACK_HOST.test(host)) {
    return forbiddenOrigin('The control plane answers only requests addressed to a loopback host name.');
  }
  const contentType = x.request.headers['content-type'];
  if ((x.request.body ?? '').length > 0 && !(contentType && /json/i.test(contentType))) {
    return unsupportedMediaType(contentType ?? 'none');
  }
  return undefined;
};

const matchRoute: Stage = (x) => {
  const found = x.match(x.request.method, x.request.path);
  if (found.kind === 'not-found') return routeNotFound(x.request.method, x.request.path);
  if (found.kind === 'method-not-allowed') return methodNotAllowed(found.allowed);
  x.route = found.route;
  x.params = found.params;
  return undefined;
};

const authenticateRequest: Stage = (x) => {
  x.principal = authenticate(x.request, x.state, x.now);
  return undefined;
};

/**
 * Bytes of a string in UTF-8, for the body limit when the adapter did not measure it (in-process
 * calls). Only long strings are counted: a string of n characters has n to 3n bytes.
 */
function utf8Length(text: string): number {
  if (text.length * 3 <= MAX_BODY_BYTES) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

const FORM_TYPES = /^(multipart\/|application\/x-www-form-urlencoded)/i;

const decodeBody: Stage = (x) => {
  const route = x.route as Route;
  if (!route.body) return undefined;
  if (x.request.bodyTooLarge || utf8Length(x.request.body ?? '') > MAX_BODY_BYTES) return payloadTooLarge(MAX_BODY_BYTES);
  const contentType = x.request.headers['content-type'];
  if (contentType && FORM_TYPES.test(contentType)) return unsupportedMediaType(contentType);
  const raw = x.request.body ?? '';
  let value: unknown;
  if (raw.trim().length === 0) {
    value = route.bodyOptional ? {} : undefined;
  } else {
    try {
      value = JSON.parse(raw);
    } catch {
      return parseError();
    }
  }
  const parsed = route.body.safeParse(value);
  if (!parsed.success) {
    return (route.bodyError ?? schemaValidation)(value === undefined ? [{ field: 'body', message: 'A JSON body is required' }] : issueDetails(parsed.error.issues));
  }
  x.body = parsed.data;
  return undefined;
};

function routeContext(x: Exchange): RouteContext {
  return {
    request: x.request,
    requestId: x.requestId,
    principal: x.principal as Principal,
    params: x.params ?? {},
    now: x.now,
    sim: x.sim,
    state: x.state,
  };
}

const authorizeRoute: Stage = (x) => {
  const route = x.route as Route;
  if (!route.authorize) return undefined;
  const access = route.authorize(routeContext(x), x.body);
  if (isError(access)) return access;
  x.access = access;
  return undefined;
};

const validateRoute: Stage = (x) => {
  const route = x.route as Route;
  if (!route.validate) return undefined;
  const input = route.validate(routeContext(x), x.body, x.access);
  if (isError(input)) return input;
  x.input = input;
  return undefined;
};

const operate: Stage = (x) => (x.route as Route).handle(routeContext(x), x.body, x.access, x.input);

/**
 * The request pipeline, in the live service's order. The request id is assigned before it.
 * Authentication only reads the request, so it runs first: the in-flight gate still counts
 * every well-formed secret, known or not, and scenarios can match on the key. A scenario's
 * refusal stands in front of the service: it holds no slot and uses no quota. CORS follows
 * authentication (it drops a session cookie sent from a disallowed origin) and answers
 * preflights before faults, the gate and the quotas can touch them.
 */
export const PIPELINE: readonly Stage[] = [
  guardControlPlane,
  authenticateRequest,
  applyCors,
  planFaults,
  injectFault,
  gateInFlight,
  enforceKeyQuota,
  matchRoute,
  decodeBody,
  enforceEndpointLimit,
  authorizeRoute,
  enforceRouteWindow,
  validateRoute,
  operate,
];
