import { discoveryRoutes } from '../discovery/discovery-routes.js';
import { aiTrafficRoutes } from '../ingest/ai-traffic-route.js';
import { browserRoutes } from '../ingest/browser-routes.js';
import { engagementRoutes } from '../ingest/engagement-route.js';
import { errorsRoutes } from '../ingest/errors-route.js';
import { eventsRoutes } from '../ingest/events-route.js';
import { identifyRoutes } from '../ingest/identify-route.js';
import { mcpRoutes } from '../ingest/mcp-route.js';
import { pixelRoutes } from '../ingest/pixel-route.js';
import { trackRoutes } from '../ingest/track-route.js';
import { vitalsRoutes } from '../ingest/vitals-route.js';
import { paddleWebhookRoutes } from '../ingest/webhooks/paddle-webhook-route.js';
import { stripeWebhookRoutes } from '../ingest/webhooks/stripe-webhook-route.js';
import { manageRoutes } from '../manage/manage-routes.js';
import { queryRoutes } from '../query/query-routes.js';
import type { Route } from './route.js';

/**
 * The route table of the simulated service: every path it answers, in one list, each entry
 * declaring its access, schemas and limits. The public pipeline enforces the declarations; the
 * OpenAPI document, the README's scope matrix and the tests read them. The `/__sim` harness has
 * its own table (`control/control-table.ts`).
 */
export const PUBLIC_ROUTES: readonly Route[] = [
  ...queryRoutes,
  ...discoveryRoutes,
  ...trackRoutes,
  ...browserRoutes,
  ...pixelRoutes,
  ...vitalsRoutes,
  ...errorsRoutes,
  ...engagementRoutes,
  ...identifyRoutes,
  ...eventsRoutes,
  ...mcpRoutes,
  ...aiTrafficRoutes,
  ...stripeWebhookRoutes,
  ...paddleWebhookRoutes,
  ...manageRoutes,
];
