import type { SimRequest } from '../messages.js';

const HOST = /^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The origin a client used to reach the simulator, from `Host` and `X-Forwarded-Proto`, for
 * links in discovery documents. Anything that is not a plain host name falls back to localhost.
 */
export function requestOrigin(request: Pick<SimRequest, 'headers'>): string {
  const host = request.headers.host;
  const proto = request.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
  return `${proto}://${host !== undefined && HOST.test(host) ? host : 'localhost'}`;
}
