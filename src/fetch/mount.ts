/**
 * Where a simulated host is mounted: an origin and a path prefix. Requests under it reach the
 * simulator with their path taken relative to the prefix, as `simulatorMiddleware` takes it
 * relative to its mount point.
 */
export interface Mount {
  /** The base URL as given, normalized (no trailing slash). */
  readonly url: string;
  /**
   * The path of `target` relative to the mount (`/v1/query`, `/` for the mount itself), or
   * undefined when `target` is on another origin or outside the prefix.
   */
  relative(target: URL): string | undefined;
}

/** Parses a base URL such as `http://analytics.test` or `https://example.test/api`. Throws on anything else. */
export function mountAt(baseUrl: string, what = 'baseUrl'): Mount {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`Invalid ${what} '${baseUrl}': write an absolute http(s) URL such as http://analytics.test`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`Invalid ${what} '${baseUrl}': only http and https URLs can be intercepted`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new Error(`Invalid ${what} '${baseUrl}': give an origin and an optional path, without query, fragment or credentials`);
  }
  const origin = url.origin;
  const prefix = url.pathname.replace(/\/+$/, '');
  return {
    url: `${origin}${prefix}`,
    relative(target) {
      if (target.origin !== origin) return undefined;
      const path = target.pathname;
      if (prefix === '') return path;
      if (path === prefix) return '/';
      return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : undefined;
    },
  };
}
