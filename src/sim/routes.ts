import { controlRoutes } from './control/control-routes.js';
import { scenarioRoutes } from './control/scenario-routes.js';
import { keyRoutes } from './control/key-routes.js';
import { sessionRoutes } from './control/session-routes.js';
import { queryRoutes } from './query/query-routes.js';
import { discoveryRoutes } from './discovery/discovery-routes.js';
import { trackRoutes } from './ingest/track-route.js';
import { manageRoutes } from './manage/manage-routes.js';
import type { Route } from './route.js';

/**
 * The route table: every path the simulator answers, in one list. The OpenAPI document and
 * the docs are generated from it.
 */
export const ROUTES: readonly Route[] = [...queryRoutes, ...controlRoutes, ...scenarioRoutes, ...keyRoutes, ...sessionRoutes, ...discoveryRoutes, ...trackRoutes, ...manageRoutes];
