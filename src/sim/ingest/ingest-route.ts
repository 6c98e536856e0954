import { defineRouteGroup } from '../routing/route.js';

/**
 * A `defineRoute` for the ingestion service's routes: family `ingest`, public access (each route
 * names its sender itself: a client id, a Host, a webhook signature) unless the route declares
 * the API key it takes.
 */
export const defineIngestRoute = defineRouteGroup({ family: 'ingest', access: { kind: 'public' } });
