import { next, type Stage } from '../pipeline/exchange.js';
import { authenticate } from './authenticate.js';

/** Who the request acts as: an API key, a dashboard session or anonymous (it never refuses). */
export const authenticateRequest: Stage = (x) => next({ principal: authenticate(x.request, x.state, x.now) });
