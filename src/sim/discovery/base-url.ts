import type { SimRequest } from '../messages.js';

const HOST = /^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;
/** One or more path segments of URL path characters (no `/` alone, no trailing slash). */
const BASE_PATH = /^(?:\/(?:[A-Za-z0-9._~!$&'()*+,;=:@\-]|%[0-9A-Fa-f]{2})+)+$/;

/**
 * The base URL a client used to reach the simulator, from `Host` and `X-Forwarded-Proto`, then
 * the adapter's mount path (`basePath`), for links in discovery documents. Anything that is not
 * a plain host name falls back to localhost; a mount path that is not a plain path is left out.
 */
export function requestBaseUrl(request: Pick<SimRequest, 'headers' | 'basePath'>): string {
  const host = request.headers.host;
  const proto = request.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
  const basePath = request.basePath !== undefined && BASE_PATH.test(request.basePath) ? request.basePath : '';
  return `${proto}://${host !== undefined && HOST.test(host) ? host : 'localhost'}${basePath}`;
}
