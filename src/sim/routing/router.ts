import type { Route } from './route.js';

/** The result of matching a request line against a route table. */
export type RouteMatch =
  | { readonly kind: 'found'; readonly route: Route; readonly params: Record<string, string> }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly string[]; readonly routes: readonly Route[] }
  | { readonly kind: 'not-found' };

/** Matches a method and path against one route table. */
export type Matcher = (method: string, path: string) => RouteMatch;

interface Compiled {
  readonly route: Route;
  readonly segments: readonly string[];
}

/**
 * Builds a matcher over a route table. Paths are `/`-separated; a `:name` segment captures
 * one decoded segment. Static paths are looked up in a map; trailing slashes are ignored.
 * HEAD falls back to GET. A path served with other methods is `method-not-allowed`, with the
 * routes at that path (CORS reads their family).
 */
export function createRouter(routes: readonly Route[]): Matcher {
  const staticRoutes = new Map<string, Map<string, Route>>();
  const dynamic: Compiled[] = [];
  for (const route of routes) {
    if (route.path.includes(':')) {
      dynamic.push({ route, segments: route.path.split('/') });
    } else {
      const byMethod = staticRoutes.get(route.path) ?? new Map<string, Route>();
      byMethod.set(route.method, route);
      staticRoutes.set(route.path, byMethod);
    }
  }
  return (method, rawPath) => {
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
    const byMethod = staticRoutes.get(path);
    if (byMethod) {
      const route = byMethod.get(method) ?? (method === 'HEAD' ? byMethod.get('GET') : undefined);
      return route
        ? { kind: 'found', route, params: {} }
        : { kind: 'method-not-allowed', allowed: [...byMethod.keys()], routes: [...byMethod.values()] };
    }
    const segments = path.split('/');
    const others: Route[] = [];
    for (const candidate of dynamic) {
      const params = matchSegments(candidate.segments, segments);
      if (!params) continue;
      if (candidate.route.method === method) return { kind: 'found', route: candidate.route, params };
      others.push(candidate.route);
    }
    return others.length > 0
      ? { kind: 'method-not-allowed', allowed: others.map((r) => r.method), routes: others }
      : { kind: 'not-found' };
  };
}

/** The captured parameters when `segments` fit the pattern, else null. */
function matchSegments(pattern: readonly string[], segments: readonly string[]): Record<string, string> | null {
  if (pattern.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const want = pattern[i] as string;
    const got = segments[i] as string;
    if (!want.startsWith(':')) {
      if (want !== got) return null;
      continue;
    }
    if (got.length === 0) return null;
    try {
      params[want.slice(1)] = decodeURIComponent(got);
    } catch {
      return null;
    }
  }
  return params;
}

/** The routes a match names: the one found, or those at the path under other methods. */
export function routesOf(match: RouteMatch): readonly Route[] {
  return match.kind === 'found' ? [match.route] : match.kind === 'method-not-allowed' ? match.routes : [];
}
