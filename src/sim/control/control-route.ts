import { defineRouteGroup, uses } from '../routing/route.js';
import type { ControlBackend } from './control-backend.js';

/** What a control route uses beyond its context: the harness operations behind `/__sim`. */
export interface ControlServices {
  readonly control: ControlBackend;
}

/**
 * Declares a route of the `/__sim` control plane: family `control`, access `control` (served by
 * the control chain only: no credential, no admission, no journal); its context carries the
 * control backend (`ctx.control`).
 */
export const defineControlRoute = defineRouteGroup({ family: 'control', access: { kind: 'control' } }, uses<ControlServices>());
