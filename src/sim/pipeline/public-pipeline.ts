import { enforceEndpointLimit, enforceKeyQuota, enforceRouteWindow, gateInFlight } from '../admission/admission-stages.js';
import { authenticateRequest } from '../auth/authenticate-stage.js';
import { applyCors } from '../cors/cors-stage.js';
import { injectFault, planFaults } from '../faults/fault-stages.js';
import type { Stage } from './exchange.js';
import {
  answerUnmatched,
  authorizeRoute,
  decodeBody,
  enforceAccess,
  operate,
  runHandler,
  readQuery,
  refuseWarnings,
  reportQueryProblems,
  validateRoute,
} from './route-stages.js';

/**
 * The request path of the simulated service, in the live service's order. Before it: the
 * request id, the clock instant and the route match. Authentication only reads the request,
 * so it runs first: the in-flight gate still counts every well-formed secret, known or not,
 * and scenarios can match on the key. CORS follows authentication (it drops a session cookie
 * sent from a disallowed origin) and answers preflights before faults, the gate and the quotas
 * can touch them. A scenario's refusal stands in front of the service: it holds no slot and
 * uses no quota. A path no route serves still counts against the gate and the quota.
 */
export const PUBLIC_PIPELINE: readonly Stage[] = [
  authenticateRequest, //  who: API key, session cookie or anonymous (auth/authenticate-stage.ts)
  applyCors, //            CORS headers; preflights answered 204 (cors/cors-stage.ts)
  planFaults, //           what running scenarios do to this request (faults/fault-stages.ts)
  injectFault, //          a scenario's 429/503/error/reset (faults/fault-stages.ts)
  gateInFlight, //         at most 20 in flight per key (admission/admission-stages.ts)
  enforceKeyQuota, //      the rolling per-key quota (admission/admission-stages.ts)
  answerUnmatched, //      404 / 405 (pipeline/route-stages.ts)
  decodeBody, //           413, 415, 400 PARSE, 422 against the route's body schema
  enforceEndpointLimit, // the per-endpoint window of the route (admission/admission-stages.ts)
  readQuery, //            the route's query schema, field by field
  enforceAccess, //        the route's declared access: 401, 403 FORBIDDEN
  authorizeRoute, //       the route's resource reach: 403 ACCESS_DENIED, 404
  enforceRouteWindow, //   the route's own window, e.g. /track per key or website (admission)
  reportQueryProblems, //  400 for query parameters that failed their schema
  validateRoute, //        the route's own validation: 400
  refuseWarnings, //       under --strict, 400 for what would be ignored or reinterpreted
  operate, //              the handler
];

/**
 * How every process applies a logged public request that changes state (with a shared store):
 * the route's own steps against the state as the log has made it, then the handler. No
 * authentication (the principal travels with the command), admission or faults: the process
 * the request arrived at already decided those.
 */
export const PUBLIC_REPLAY: readonly Stage[] = [
  decodeBody,
  readQuery,
  enforceAccess,
  authorizeRoute,
  reportQueryProblems,
  validateRoute,
  refuseWarnings,
  runHandler,
];
