import type { Simulator } from '../../src/sim/simulator.js';
import { secretOf } from './sim.js';

/** The name of the dashboard session cookie. */
export const SESSION_COOKIE_NAME = 'databuddy.session_token';

/** Every fixture API key id. */
export const FIXTURE_KEY_IDS = [
  'key_acme_read',
  'key_acme_store_only',
  'key_acme_track',
  'key_acme_monitors',
  'key_acme_all',
  'key_acme_expired',
  'key_acme_revoked',
  'key_acme_disabled',
  'key_acme_quota',
  'key_acme_quota_default',
  'key_globex_read',
] as const;

/** The session token of a fixture user, as GET /__sim/fixtures reveals it. */
export function sessionTokenOf(sim: Simulator, userId: string): string {
  const fixtures = sim.fixtures() as { users: { id: string; sessionToken: string | null }[] };
  const token = fixtures.users.find((u) => u.id === userId)?.sessionToken;
  if (!token) throw new Error(`no fixture user ${userId}`);
  return token;
}

/** Every fixture secret and session token of a simulator, to check that none leaks. */
export function allSecrets(sim: Simulator): string[] {
  const fixtures = sim.fixtures() as { users: { sessionToken: string | null }[] };
  return [
    ...FIXTURE_KEY_IDS.map((id) => secretOf(sim, id)),
    ...fixtures.users.map((u) => u.sessionToken).filter((t): t is string => t !== null),
  ];
}

/** `Authorization: Bearer <secret>`. */
export function bearer(secret: string, scheme = 'Bearer'): Record<string, string> {
  return { authorization: `${scheme} ${secret}` };
}

/** `Cookie: databuddy.session_token=<token>`. */
export function sessionCookie(token: string): Record<string, string> {
  return { cookie: `${SESSION_COOKIE_NAME}=${token}` };
}

/** A small query body every website answers. */
export const SUMMARY_QUERY = { parameters: ['summary_metrics'], preset: 'last_7d' } as const;

/** A compile body. */
export const COMPILE_BODY = { projectId: 'web_acme_store', type: 'summary_metrics', from: '2025-05-01', to: '2025-05-31' } as const;

/** The request-id format of DESIGN.md. */
export const REQUEST_ID = /^req_[A-Za-z0-9]{16}$/;
