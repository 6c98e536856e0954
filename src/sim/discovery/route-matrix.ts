import type { Route } from '../routing/route.js';

/** Who may call a route, in words, from its declared access. */
export function describeAccess(route: Route): string {
  const { access } = route;
  switch (access.kind) {
    case 'public':
      return 'public, no credential';
    case 'control':
      return 'control plane (loopback only)';
    case 'ingest':
      return `\`${access.scope}\` with an API key; without one, the website named in the request`;
    case 'key': {
      const more = access.scopesFor ? ' (and the scopes of the types named)' : '';
      const open = access.publicWhen ? '; public data of a public website needs none' : '';
      return `\`${access.scope}\`${more}${open}`;
    }
  }
}

/**
 * The route matrix as a Markdown table: every route with its method, path, declared access and
 * per-endpoint limit, in table order. `docs/routes.md` is this text; a test keeps them equal.
 */
export function renderRouteMatrix(routes: readonly Route[]): string {
  const rows = routes.map((route) => `| ${route.method} | \`${route.path}\` | ${describeAccess(route)} | ${route.limit ? `\`${route.limit}\`` : ''} | ${route.summary.replace(/\|/g, '\\|')} |`);
  return ['| method | path | access (API keys need the scope; sessions act with every scope) | limit | what it does |', '|---|---|---|---|---|', ...rows].join('\n');
}
