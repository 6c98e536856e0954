import { errorBodySchema } from '../../contract/errors.js';
import {
  signInRequestSchema,
  signInResponseSchema,
  signOutRequestSchema,
  signOutResponseSchema,
} from '../../contract/sessions.js';
import { clearedSessionCookie, sessionCookie, signIn, signOut } from '../admin/sessions.js';
import { readCookie, SESSION_COOKIE } from '../auth/authenticate.js';
import type { SimRequest } from '../messages.js';
import { isError, ok } from '../routing/route.js';
import { defineControlRoute } from './control-route.js';

/** Whether the request says it came over https (a TLS-terminating proxy sets `X-Forwarded-Proto`). */
function overHttps(request: Omit<SimRequest, 'query'>): boolean {
  return request.headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase() === 'https';
}

/**
 * Dashboard sessions for browser tests: `POST /__sim/sessions` signs a fixture user in and sets
 * the `databuddy.session_token` cookie; `DELETE /__sim/sessions` signs out and clears it.
 */
export const sessionRoutes = [
  defineControlRoute({
    method: 'POST',
    path: '/__sim/sessions',
    browser: true,
    summary:
      'Sign a fixture user in ({ userId } or { email }, optional maxAgeSeconds): the token in the body and in a Set-Cookie databuddy.session_token (HttpOnly, SameSite=Lax, Secure over https).',
    body: signInRequestSchema,
    responses: {
      201: { description: 'Signed in; the cookie is set', schema: signInResponseSchema },
      404: { description: 'No fixture user has this id or email (NOT_FOUND)', schema: errorBodySchema },
      422: { description: 'Neither or both of userId and email (VALIDATION)', schema: errorBodySchema },
    },
    handle(ctx, body) {
      const session = signIn(ctx.state, ctx.now, body);
      if (isError(session)) return session;
      return ok(session, 201, { 'Set-Cookie': sessionCookie(session.token, session.maxAgeSeconds, overHttps(ctx.request)) });
    },
  }),
  defineControlRoute({
    method: 'DELETE',
    path: '/__sim/sessions',
    browser: true,
    summary: 'Sign out: ends the session of the request’s cookie (or of { token }) and clears the cookie.',
    body: signOutRequestSchema,
    bodyOptional: true,
    responses: { 200: { description: 'Signed out; signedOut says whether a live session ended', schema: signOutResponseSchema } },
    handle(ctx, body) {
      const token = body.token ?? readCookie(ctx.request.headers.cookie, SESSION_COOKIE);
      const signedOut = token !== undefined && signOut(ctx.state, token);
      return ok({ ok: true, signedOut }, 200, { 'Set-Cookie': clearedSessionCookie(overHttps(ctx.request)) });
    },
  }),
];
