import type { SimResponse } from '../messages.js';
import type { Limiter } from './limiter.js';

/**
 * Ends a request's hold on its in-flight slot (`lease`: the presented key's fingerprint;
 * `leaseId`: the slot's own name in a shared store). Without `holdSlot` the slot is released
 * now; with it the response carries an idempotent `release` for the adapter to call once the
 * last byte is sent or the client went away (SPEC 8.2.2 counts a request until it is answered).
 */
export function settleLease(limiter: Limiter, lease: string | null, leaseId: string | null, response: SimResponse, holdSlot: boolean): SimResponse | Promise<SimResponse> {
  if (lease === null) return response;
  if (!holdSlot) {
    const released = limiter.release(lease, leaseId);
    return released instanceof Promise ? released.then(() => response) : response;
  }
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    void limiter.release(lease, leaseId);
  };
  return withRelease(response, release);
}

/**
 * `response` with `release`, made field by field: every response of a held slot has one shape
 * (a spread of responses of several shapes is a slow copy on the hot path).
 */
export function withRelease(response: SimResponse, release: () => void): SimResponse {
  return { status: response.status, headers: response.headers, body: response.body, bytes: response.bytes, delayMs: response.delayMs, abort: response.abort, reason: response.reason, trace: response.trace, release };
}
