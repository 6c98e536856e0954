import type { Route } from '../routing/route.js';
import { flagRoutes } from './flags-routes.js';
import { linkRoutes } from './links-routes.js';
import { monitorRoutes } from './monitors-routes.js';
import { organizationRoutes } from './organization-routes.js';
import { statusPageRoutes } from './status-pages-routes.js';
import { websiteRoutes } from './websites-routes.js';

/**
 * The management routes of SPEC 5.3 under /v1: websites, short links, uptime monitors, status
 * pages with incidents, feature flags and organization settings, plus the public status-page read.
 */
export const manageRoutes: readonly Route[] = [
  ...websiteRoutes,
  ...linkRoutes,
  ...monitorRoutes,
  ...statusPageRoutes,
  ...flagRoutes,
  ...organizationRoutes,
];
