import { requestBaseUrl } from '../discovery/base-url.js';
import { liveAuthChallenge } from '../errors.js';
import { next, type Exchange, type Stage } from '../pipeline/exchange.js';
import { followsLive } from '../profile.js';
import { authenticate } from './authenticate.js';
import type { LiveAuth, Principal } from './principal.js';

/** The Query API's routes: the live service resolves their credential in one derive. */
function isQueryPath(path: string): boolean {
  return path === '/v1/query' || path.startsWith('/v1/query/');
}

/**
 * `auth-codes` under `live`: the credential as the live service treats it. On the query routes
 * (`apps/api/src/routes/query.ts`, the `derive`), an API key holding neither read:data nor
 * read:monitors is dropped with any session: the request is unauthenticated (401
 * AUTH_REQUIRED). Every principal learns the live 401 challenge.
 */
function asLive(principal: Principal, x: Exchange): Principal {
  const queryRoute = isQueryPath(x.request.path);
  const live: LiveAuth = { challenge: liveAuthChallenge(requestBaseUrl(x.request)), queryRoute };
  if (queryRoute && principal.kind === 'apikey' && !principal.key.scopes.includes('read:data') && !principal.key.scopes.includes('read:monitors')) {
    return { kind: 'anonymous', ip: principal.ip, problem: null, live };
  }
  return { ...principal, live };
}

/** Who the request acts as: an API key, a dashboard session or anonymous (it never refuses). */
export const authenticateRequest: Stage = (x) => {
  const principal = authenticate(x.request, x.state, x.now);
  return next({ principal: followsLive(x.sim.profile, 'auth-codes') ? asLive(principal, x) : principal });
};
