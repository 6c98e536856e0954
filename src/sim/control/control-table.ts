import type { Route } from '../routing/route.js';
import { controlRoutes } from './control-routes.js';
import { inspectorRoutes } from './inspector-routes.js';
import { keyRoutes } from './key-routes.js';
import { metricsRoutes } from './metrics-route.js';
import { profileRoutes } from './profile-routes.js';
import { sandboxRoutes } from './sandbox-routes.js';
import { scenarioRoutes } from './scenario-routes.js';
import { sessionRoutes } from './session-routes.js';

/**
 * The control-plane table: every `/__sim` route, served by the control pipeline (no
 * authentication, admission, CORS of the service or journal entry).
 */
export const CONTROL_ROUTES: readonly Route[] = [...controlRoutes, ...scenarioRoutes, ...keyRoutes, ...sessionRoutes, ...inspectorRoutes, ...metricsRoutes, ...profileRoutes, ...sandboxRoutes];
