/**
 * The control plane's JSON routes, from the page. Paths are relative to where the page is
 * mounted (`/__sim/ui`, or under express's mount point), never cached.
 */
import type { ErrorBody } from './wire.js';

/** Where `/__sim` is: the page's path without its own `/__sim/ui`. */
const base = location.pathname.replace(/\/__sim\/ui\/?$/, '');

/**
 * The answer's JSON body (null when it has none), as `T`: the route's declared shape, not
 * checked here. A status other than 2xx rejects with the error's code and first detail.
 */
async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(base + path, { cache: 'no-store', headers: { accept: 'application/json' }, ...init });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) {
    const error = body as Partial<ErrorBody> | null;
    const detail = error?.details?.[0];
    const message = error?.error ? error.error + (detail ? `: ${detail.message}` : '') : `HTTP ${res.status}`;
    throw new Error(`${path} answered ${res.status} (${message})`);
  }
  return body as T;
}

/** `GET path`. */
export function getJson<T>(path: string): Promise<T> {
  return call<T>(path);
}

/** `POST path` with `body` as JSON. */
export function postJson<T>(path: string, body: unknown): Promise<T> {
  return call<T>(path, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
}
