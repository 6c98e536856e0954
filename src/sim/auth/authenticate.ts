import type { SimRequest } from '../messages.js';
import type { SimState } from '../state.js';
import { hashSecret, KEY_PREFIX } from './key-hash.js';
import type { Principal } from './principal.js';

/** Name of the dashboard session cookie. */
export const SESSION_COOKIE = 'databuddy.session_token';

/**
 * Presented secrets whose hash is remembered. A load test rotating over thousands of keys must
 * still hit the memo (hashing is the largest cost of authenticating); 16,384 entries of about
 * 250 bytes bound it at a few MB.
 */
const HASH_MEMO_LIMIT = 16_384;

/**
 * Hashes a presented secret, memoized in the simulator's state: the same keys arrive again and
 * again. The memo is bounded (emptied when full, so a flood of distinct made-up secrets costs a
 * hash each and never grows memory) and belongs to one simulator.
 */
export function hashPresented(secret: string, memo: Map<string, string>): string {
  let hash = memo.get(secret);
  if (hash === undefined) {
    hash = hashSecret(secret);
    if (memo.size >= HASH_MEMO_LIMIT) memo.clear();
    memo.set(secret, hash);
  }
  return hash;
}

/** Whether a presented key has the service's format: `dbdy_`, 10 to 200 characters. */
export function isWellFormedKey(secret: string): boolean {
  return secret.startsWith(KEY_PREFIX) && secret.length >= 10 && secret.length <= 200;
}

/**
 * The client address a proxy in front names in the forwarded headers: `cf-connecting-ip`, the
 * first `x-forwarded-for` entry, then `x-real-ip`; undefined when none is sent. Only to be
 * believed when a trusted proxy sets them (`--trust-proxy`): a client can send any value.
 */
export function forwardedAddress(headers: SimRequest['headers']): string | undefined {
  const forwarded = headers['x-forwarded-for']?.split(',')[0];
  const ip = (headers['cf-connecting-ip'] ?? forwarded ?? headers['x-real-ip'])?.trim();
  return ip === undefined || ip.length === 0 ? undefined : ip;
}

/**
 * The client address used for anonymous limits, bounded in length: the `clientAddress` an
 * adapter decided (the node server: the socket peer, or the forwarded address only when told
 * to trust a proxy), else (in-process adapters, which have no socket) the
 * {@link forwardedAddress}, then the peer address.
 */
export function clientIp(request: SimRequest): string {
  const ip = (request.clientAddress ?? forwardedAddress(request.headers) ?? request.remoteAddress ?? 'unknown').trim();
  return ip.length > 0 ? ip.slice(0, 64) : 'unknown';
}

/**
 * A header value as the live service reads it through the Fetch `Headers` API, which strips
 * leading and trailing whitespace (node's HTTP parser does the same on the wire).
 */
function headerValue(request: Pick<SimRequest, 'headers'>, name: string): string {
  return (request.headers[name] ?? '').trim();
}

/**
 * What a request presents as an API key, exactly as the live service extracts it
 * (`packages/api-keys/src/resolve.ts`, `extractSecret` and `isApiKeyPresent`):
 *
 * 1. `x-api-key`, trimmed, when it is well-formed (`dbdy_`, 10 to 200 characters);
 * 2. else `Authorization` when it starts with `bearer ` (any case, one space): the rest, trimmed,
 *    when it is well-formed. A malformed `x-api-key` does not hide a good Bearer token;
 * 3. else, when either header was sent (a non-empty `x-api-key`, or any `Bearer ` value), the
 *    credential is present but malformed; otherwise none was sent (another scheme, such as
 *    `Basic`, or `Bearer` with nothing after it, counts as none).
 */
export type PresentedCredential =
  | { readonly kind: 'key'; readonly secret: string }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'none' };

const BEARER = 'bearer ';

/** Reads the API key a request presents; see {@link PresentedCredential}. */
export function presentedCredential(request: Pick<SimRequest, 'headers'>): PresentedCredential {
  const header = headerValue(request, 'x-api-key');
  if (header.length > 0 && isWellFormedKey(header)) return { kind: 'key', secret: header };
  const auth = headerValue(request, 'authorization');
  const bearer = auth.toLowerCase().startsWith(BEARER);
  if (bearer) {
    const token = auth.slice(BEARER.length).trim();
    if (token.length > 0 && isWellFormedKey(token)) return { kind: 'key', secret: token };
  }
  return header.length > 0 || bearer ? { kind: 'malformed' } : { kind: 'none' };
}

/** The well-formed API key a request presents, if any (see {@link presentedCredential}). */
export function presentedKey(request: Pick<SimRequest, 'headers'>): string | undefined {
  const credential = presentedCredential(request);
  return credential.kind === 'key' ? credential.secret : undefined;
}

/** The value of cookie `name` in a `Cookie` header, if present. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Resolves who a request acts as. An API key wins over a session cookie. A key that is
 * malformed, unknown, disabled, revoked or expired makes the request anonymous, with the
 * reason kept for the 401 hint. Never throws; never records the secret. The key is read as the
 * live service reads it ({@link presentedCredential}).
 */
export function authenticate(request: SimRequest, state: SimState, now: number): Principal {
  const ip = clientIp(request);
  const credential = presentedCredential(request);
  if (credential.kind === 'malformed') {
    return { kind: 'anonymous', ip, problem: `The API key is malformed: keys start with ${KEY_PREFIX} and have 10 to 200 characters.` };
  }
  if (credential.kind === 'key') {
    const { secret } = credential;
    const key = state.keysByHash.get(hashPresented(secret, state.hashMemo));
    if (!key) return { kind: 'anonymous', ip, problem: 'The API key is not recognised.' };
    if (!key.enabled) return { kind: 'anonymous', ip, problem: 'The API key is disabled.' };
    if (key.revokedAt !== null) return { kind: 'anonymous', ip, problem: 'The API key has been revoked.' };
    if (key.expiresAt !== null && key.expiresAt <= now) {
      return { kind: 'anonymous', ip, problem: `The API key expired at ${new Date(key.expiresAt).toISOString()}.` };
    }
    return { kind: 'apikey', ip, key };
  }
  const token = readCookie(request.headers.cookie, SESSION_COOKIE);
  if (token !== undefined) {
    const hash = token.length <= 200 ? hashPresented(token, state.hashMemo) : undefined;
    const userId = hash === undefined ? undefined : state.sessionsByHash.get(hash);
    const user = userId === undefined ? undefined : state.users.get(userId);
    if (!user) return { kind: 'anonymous', ip, problem: 'The session cookie is not recognised or has expired.' };
    const expiresAt = state.admin.sessionExpiresAt.get(hash as string);
    if (expiresAt !== undefined && expiresAt <= now) {
      return { kind: 'anonymous', ip, problem: `The session expired at ${new Date(expiresAt).toISOString()}; sign in again.` };
    }
    return { kind: 'user', ip, user };
  }
  return { kind: 'anonymous', ip, problem: null };
}
