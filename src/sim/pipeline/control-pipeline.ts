import { applyControlCors } from '../cors/cors-stage.js';
import { presentsControlToken } from '../control/control-token.js';
import { authRequired, forbidden, unsupportedMediaType } from '../errors.js';
import { CONTINUE, replayStages, respond, servingStages, type PipelineStep, type Stage } from './exchange.js';
import { answerUnmatched, decodeBody, operate, readQuery, refuseWarnings, reportQueryProblems, runHandler, validateRoute } from './route-stages.js';

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;
const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127(?:\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;

/**
 * Keeps web pages away from the control plane: a cross-site page may not call `/__sim` (its
 * Origin must be a loopback one), bodies must be declared JSON (so a browser must preflight),
 * when the simulator guards its host, the Host header must be a loopback name (against DNS
 * rebinding), and, when it has a control token (a server reachable from the network), the
 * request must present it: 401 AUTH_REQUIRED without it.
 */
export const guardControlPlane: Stage = (x) => {
  const { origin, host } = x.request.headers;
  const token = x.sim.controlToken;
  if (token !== undefined && !presentsControlToken(x.request.headers.authorization, token)) {
    return respond(
      authRequired('The control plane of a simulator reachable from the network needs its control token: Authorization: Bearer <token> (printed at start, or --control-token).', {
        message: 'Control token required',
      }),
    );
  }
  if (origin !== undefined && origin !== 'null' && !LOOPBACK_ORIGIN.test(origin)) {
    return respond(forbidden(null, { message: 'Forbidden origin', hint: 'The control plane answers only pages served from this machine (a loopback Origin).' }));
  }
  if (origin === 'null') return respond(forbidden(null, { message: 'Forbidden origin', hint: 'The control plane does not answer opaque (null) origins.' }));
  if (x.sim.guardHost && host !== undefined && !LOOPBACK_HOST.test(host)) {
    return respond(forbidden(null, { message: 'Forbidden origin', hint: 'The control plane answers only requests addressed to a loopback host name.' }));
  }
  const contentType = x.request.headers['content-type'];
  if ((x.request.body ?? '').length > 0 && !(contentType && /json/i.test(contentType))) {
    return respond(unsupportedMediaType(contentType ?? 'none'));
  }
  return CONTINUE;
};

/**
 * The request path of the `/__sim` harness: no authentication, admission, scenario faults or
 * journal entry, and no CORS of the public API (only routes marked `browser` answer pages).
 * With a shared store, a logged control request is applied by every process through the same
 * list (`replay`, as in `public-pipeline.ts`).
 */
const CONTROL_STEPS: readonly PipelineStep[] = [
  { stage: guardControlPlane, replay: 'skip' }, //   loopback Origin and Host, JSON bodies only
  { stage: applyControlCors, replay: 'skip' }, //    CORS only for `browser` routes (sign-in, health); preflights 204
  { stage: answerUnmatched, replay: 'skip' }, //     404 / 405
  { stage: decodeBody, replay: 'run' }, //           the route's body schema
  { stage: readQuery, replay: 'run' }, //            the route's query schema
  { stage: reportQueryProblems, replay: 'run' }, //  400 naming each bad query parameter
  { stage: validateRoute, replay: 'run' }, //        the route's own validation
  { stage: refuseWarnings, replay: 'run' }, //       under --strict, 400 for what would be ignored
  { stage: operate, replay: runHandler }, //         the handler
];

/** The control chain where a request arrives. */
export const CONTROL_PIPELINE: readonly Stage[] = servingStages(CONTROL_STEPS);

/** The control chain every process runs to apply a logged request. */
export const CONTROL_REPLAY: readonly Stage[] = replayStages(CONTROL_STEPS);
