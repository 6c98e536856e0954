import type { Route } from './route.js';

/** The result of matching a request line against the route table. */
export type RouteMatch =
  | { readonly kind: 'found'; readonly route: Route; readonly params: Record<string, string> }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly string[] }
  | { readonly kind: 'not-found' };

interface Compiled {
  readonly route: Route;
  readonly segments: readonly string[];
}

/**
 * Builds a matcher over a route table. Paths are `/`-separated; a `:name` segment captures
 * one decoded segment. Static paths are looked up in a map; trailing slashes are ignored.
 */
export function createRouter(routes: readonly Route[]): (method: string, path: string) => RouteMatch {
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
      return route ? { kind: 'found', route, params: {} } : { kind: 'method-not-allowed', allowed: [...byMethod.keys()] };
    }
    const segments = path.split('/');
    const allowed: string[] = [];
    for (const candidate of dynamic) {
      if (candidate.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let matched = true;
      for (let i = 0; i < segments.length && matched; i++) {
        const want = candidate.segments[i] as string;
        const got = segments[i] as string;
        if (want.startsWith(':')) {
          try {
            params[want.slice(1)] = decodeURIComponent(got);
          } catch {
            matched = false;
          }
          if (got.length === 0) matched = false;
        } else if (want !== got) {
          matched = false;
        }
      }
      if (!matched) continue;
      if (candidate.route.method === method) return { kind: 'found', route: candidate.route, params };
      allowed.push(candidate.route.method);
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  };
}
