/** An http(s) URL given on the command line, or null for anything else (another scheme, not a URL). */
function readHttpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** Whether `text` is an absolute http(s) URL. */
export function isHttpUrl(text: string): boolean {
  return readHttpUrl(text) !== null;
}

/**
 * A deployment's base URL as the commands that talk to one keep it (`conform --target`, `record
 * --target`): origin and path without a trailing slash, query, fragment or user:password@;
 * null for anything but http(s).
 */
export function parseBaseUrl(text: string): string | null {
  const url = readHttpUrl(text);
  return url === null ? null : `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
