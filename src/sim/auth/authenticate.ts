import type { SimRequest } from '../messages.js';
import type { SimState } from '../state.js';
import { hashSecret, KEY_PREFIX } from './key-hash.js';
import type { Principal } from './principal.js';

/** Name of the dashboard session cookie. */
export const SESSION_COOKIE = 'databuddy.session_token';

const HASH_MEMO_LIMIT = 1024;

/**
 * Hashes a presented secret, memoized in the simulator's state: the same few keys arrive on
 * every request. The memo is bounded and belongs to one simulator.
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
 * The client address used for anonymous limits: `cf-connecting-ip`, the first
 * `x-forwarded-for` entry, `x-real-ip`, then the socket peer. Bounded in length.
 */
export function clientIp(request: SimRequest): string {
  const h = request.headers;
  const forwarded = h['x-forwarded-for']?.split(',')[0];
  const ip = (h['cf-connecting-ip'] ?? forwarded ?? h['x-real-ip'] ?? request.remoteAddress ?? 'unknown').trim();
  return ip.length > 0 ? ip.slice(0, 64) : 'unknown';
}

/** The API key a request presents: `x-api-key` first, then `Authorization: Bearer`. */
export function presentedKey(request: SimRequest): string | undefined {
  const header = request.headers['x-api-key']?.trim();
  if (header) return header;
  const auth = request.headers.authorization;
  if (!auth) return undefined;
  const match = /^bearer\s+(\S+)\s*$/i.exec(auth);
  return match?.[1];
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
 * reason kept for the 401 hint. Never throws; never records the secret.
 */
export function authenticate(request: SimRequest, state: SimState, now: number): Principal {
  const ip = clientIp(request);
  const secret = presentedKey(request);
  if (secret !== undefined) {
    if (!isWellFormedKey(secret)) {
      return { kind: 'anonymous', ip, problem: `The API key is malformed: keys start with ${KEY_PREFIX}.` };
    }
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
