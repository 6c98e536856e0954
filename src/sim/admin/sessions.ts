import { MAX_INSTANT } from '../clock.js';
import type { SignInRequest, SignInResponse } from '../../contract/sessions.js';
import { hashSecret } from '../auth/key-hash.js';
import { SESSION_COOKIE } from '../auth/authenticate.js';
import { notFound, schemaValidation, type SimError } from '../errors.js';
import type { User } from '../model/entities.js';
import { ALPHANUMERIC } from '../random.js';
import type { SimState } from '../state.js';

/** Lifetime of a session issued by `POST /__sim/sessions` unless asked otherwise: 7 days. */
export const DEFAULT_SESSION_MAX_AGE_SECONDS = 604_800;

/** Characters of an issued session token (as the fixture tokens). */
const TOKEN_LENGTH = 32;

function findUser(state: SimState, input: SignInRequest): User | SimError {
  if (input.userId !== undefined && input.email !== undefined) {
    return schemaValidation([{ field: 'body.email', message: 'Name the user by userId or by email, not both' }]);
  }
  if (input.userId !== undefined) return state.users.get(input.userId) ?? notFound({ kind: 'User', id: input.userId });
  if (input.email !== undefined) {
    const email = input.email.trim().toLowerCase();
    return [...state.users.values()].find((u) => u.email.toLowerCase() === email) ?? notFound({ kind: 'User', id: input.email });
  }
  return schemaValidation([{ field: 'body.userId', message: 'Name the user to sign in: userId (e.g. user_alice) or email' }]);
}

/**
 * Signs a fixture user in: a new token (the n-th of the run, drawn from the stream
 * `session/<n>`), stored only as its hash, valid until `maxAgeSeconds` of simulator time pass
 * or it is signed out.
 */
export function signIn(state: SimState, now: number, input: SignInRequest): SignInResponse | SimError {
  const user = findUser(state, input);
  if ('code' in user) return user;
  const { admin } = state;
  let token: string;
  let hash: string;
  do {
    admin.counters.sessions += 1;
    token = admin.random.fork(`session/${admin.counters.sessions}`).string(TOKEN_LENGTH, ALPHANUMERIC);
    hash = hashSecret(token);
  } while (state.sessionsByHash.has(hash));
  const maxAgeSeconds = input.maxAgeSeconds ?? DEFAULT_SESSION_MAX_AGE_SECONDS;
  const expiresAt = Math.min(now + maxAgeSeconds * 1000, MAX_INSTANT);
  state.sessionsByHash.set(hash, user.id);
  admin.sessionExpiresAt.set(hash, expiresAt);
  return {
    token,
    cookieName: SESSION_COOKIE,
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      organizationIds: [...user.organizationIds],
      activeOrganizationId: user.activeOrganizationId,
    },
    expiresAt: new Date(expiresAt).toISOString(),
    maxAgeSeconds,
  };
}

/** Ends a session (an issued or a fixture one, until reset). True when the token was live. */
export function signOut(state: SimState, token: string): boolean {
  if (token.length === 0 || token.length > 200) return false;
  const hash = hashSecret(token);
  const existed = state.sessionsByHash.delete(hash);
  state.admin.sessionExpiresAt.delete(hash);
  return existed;
}

/** Whether a live session token (by hash) has passed its expiry at `now`. Fixture sessions never expire. */
export function sessionExpired(state: SimState, hash: string, now: number): boolean {
  const expiresAt = state.admin.sessionExpiresAt.get(hash);
  return expiresAt !== undefined && expiresAt <= now;
}

/**
 * The `Set-Cookie` value of a session: `HttpOnly; SameSite=Lax` on `/`, with `Max-Age`, and
 * `Secure` only when the request came over https (as `X-Forwarded-Proto` says).
 */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The `Set-Cookie` value that removes the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
