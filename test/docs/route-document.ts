import { CONTROL_ROUTES } from '../../src/sim/control/control-table.js';
import { renderRouteMatrix } from '../../src/sim/discovery/route-matrix.js';
import { PUBLIC_ROUTES } from '../../src/sim/routing/public-routes.js';

/** The text of docs/routes.md, from the route declarations. */
export function routeDocument(): string {
  return `# Routes

Generated from the route declarations by \`npm run docs:routes\` (a test fails when this file
and the declarations differ). Each route declares who may call it; the request pipeline enforces
that before the route's own code runs, and \`/openapi.json\` is built from the same declarations.
A missing credential answers 401 \`AUTH_REQUIRED\`, a missing scope 403 \`FORBIDDEN\` naming the
scope in \`hint\`.

## The simulated service

${renderRouteMatrix(PUBLIC_ROUTES)}

## The control plane (\`/__sim\`)

Not part of the simulated service: never authenticated, rate limited or journaled; refused to
pages of foreign origins and (from the CLI) to non-loopback Host headers.

${renderRouteMatrix(CONTROL_ROUTES)}
`;
}
