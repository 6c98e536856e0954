/**
 * Whether a request path matches a scenario's `route`: an exact path, a pattern whose `:name`
 * segments match any one segment, or a prefix ending in `*`.
 */
export function routeMatches(pattern: string, path: string): boolean {
  if (pattern.endsWith('*')) return path.startsWith(pattern.slice(0, -1));
  if (!pattern.includes(':')) return pattern === path;
  const want = pattern.split('/');
  const got = path.split('/');
  return want.length === got.length && want.every((segment, i) => segment.startsWith(':') || segment === got[i]);
}
