import { defineRouteGroup } from '../routing/route.js';

/**
 * Declares a route of the `/__sim` control plane: family `control`, access `control` (served by
 * the control chain only: no credential, no admission, no journal).
 */
export const defineControlRoute = defineRouteGroup({ family: 'control', access: { kind: 'control' } });
