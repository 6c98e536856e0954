import { enforceEndpointLimit, enforceKeyQuota, enforceRouteWindow, gateInFlight } from '../admission/admission-stages.js';
import { authenticateRequest } from '../auth/authenticate-stage.js';
import { applyCors } from '../cors/cors-stage.js';
import { injectFault, planFaults } from '../faults/fault-stages.js';
import { replayStages, servingStages, splitAtBegin, type PipelineStep, type Stage } from './exchange.js';
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
 *
 * With a shared store, every process applies a logged request that changes state through the
 * same list (`replay`): the route's own steps, then the handler; no authentication (the
 * principal travels with the command), admission or faults: the process the request arrived at
 * already decided those.
 */
const PUBLIC_STEPS: readonly PipelineStep[] = [
  { stage: authenticateRequest, replay: 'skip', beforeBegin: true }, //  who: API key, session cookie or anonymous (auth/authenticate-stage.ts)
  { stage: applyCors, replay: 'skip', beforeBegin: true }, //            CORS headers; preflights answered 204 (cors/cors-stage.ts)
  { stage: planFaults, replay: 'skip', beforeBegin: true }, //           what running scenarios do to this request (faults/fault-stages.ts)
  { stage: injectFault, replay: 'skip', beforeBegin: true }, //          a scenario's 429/503/error/reset (faults/fault-stages.ts)
  { stage: gateInFlight, replay: 'skip' }, //         at most 20 in flight per key (admission/admission-stages.ts)
  { stage: enforceKeyQuota, replay: 'skip' }, //      the rolling per-key quota (admission/admission-stages.ts)
  { stage: answerUnmatched, replay: 'skip' }, //      404 / 405 (pipeline/route-stages.ts)
  { stage: decodeBody, replay: 'run' }, //            413, 415, 400 PARSE, 422 against the route's body schema
  { stage: enforceEndpointLimit, replay: 'skip' }, // the per-endpoint window of the route (admission/admission-stages.ts)
  { stage: readQuery, replay: 'run' }, //             the route's query schema, field by field
  { stage: enforceAccess, replay: 'run' }, //         the route's declared access: 401, 403 FORBIDDEN
  { stage: authorizeRoute, replay: 'run' }, //        the route's resource reach: 403 ACCESS_DENIED, 404
  { stage: enforceRouteWindow, replay: 'skip' }, //   the route's own window, e.g. /track per key or website (admission)
  { stage: reportQueryProblems, replay: 'run' }, //   400 for query parameters that failed their schema
  { stage: validateRoute, replay: 'run' }, //         the route's own validation: 400
  { stage: refuseWarnings, replay: 'run' }, //        under --strict, 400 for what would be ignored or reinterpreted
  { stage: operate, replay: runHandler }, //          the handler (with a shared store, a change is logged and applied in log order)
];

/** The public chain where a request arrives. */
export const PUBLIC_PIPELINE: readonly Stage[] = servingStages(PUBLIC_STEPS);

/**
 * The public chain split where a request on a shared store begins: the head (authentication,
 * CORS, faults) reads only the request and the replica, so it may run first and the begin go
 * with the in-flight gate's ask, the tail's first stage (`handle-request.ts`).
 */
export const PUBLIC_SPLIT = splitAtBegin(PUBLIC_STEPS);

/** The public chain every process runs to apply a logged request (see {@link PUBLIC_STEPS}). */
export const PUBLIC_REPLAY: readonly Stage[] = replayStages(PUBLIC_STEPS);
