import { describe, expect, it } from 'vitest';
import { signInResponseSchema } from '../../../src/contract/sessions.js';
import type { Simulator } from '../../../src/index.js';
import { sessionCookie, sessionTokenOf } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';

const WEEK_SECONDS = 604_800;

function signIn(sim: Simulator, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(sim, 'POST', '/__sim/sessions', { body, headers });
}

async function websites(sim: Simulator, token: string, headers: Record<string, string> = {}): Promise<Answer> {
  return call(sim, 'GET', '/v1/query/websites', { headers: { ...sessionCookie(token), ...headers } });
}

const ids = (answer: Answer): string[] => (answer.json.websites as { id: string }[]).map((w) => w.id);

describe('POST /__sim/sessions', () => {
  it('signs a user in: the token in the body and in an HttpOnly, SameSite=Lax cookie with Max-Age', async () => {
    const sim = freshSimulator();
    const answer = await signIn(sim, { userId: 'user_alice' });
    expect(answer.status).toBe(201);
    const session = signInResponseSchema.parse(answer.json);
    expect(session.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(session).toMatchObject({
      cookieName: 'databuddy.session_token',
      user: { id: 'user_alice', email: 'alice@acme.io', activeOrganizationId: 'org_acme' },
      maxAgeSeconds: WEEK_SECONDS,
      expiresAt: new Date(sim.clock.now() + WEEK_SECONDS * 1000).toISOString(),
    });
    expect(answer.headers['Set-Cookie']).toBe(`databuddy.session_token=${session.token}; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax`);
  });

  it('gives a token that authenticates the Query API as the user', async () => {
    const sim = freshSimulator();
    const { token } = (await signIn(sim, { userId: 'user_bob' })).json;
    const answer = await websites(sim, token);
    expect(answer.status).toBe(200);
    const byKey = await call(sim, 'GET', '/v1/query/websites', { key: secretOf(sim, 'key_globex_read') });
    expect(ids(answer)).toEqual(ids(byKey));
    const journal = (await call(sim, 'GET', '/__sim/journal')).json.entries;
    expect(journal.at(-2).identity).toBe('user:user_bob');
  });

  it('finds the user by email, ignoring case', async () => {
    const sim = freshSimulator();
    const answer = await signIn(sim, { email: 'Carol@Chen-Consulting.com' });
    expect(answer.status).toBe(201);
    expect(answer.json.user.id).toBe('user_carol');
  });

  it('marks the cookie Secure when the request came over https', async () => {
    const sim = freshSimulator();
    const answer = await signIn(sim, { userId: 'user_alice' }, { 'x-forwarded-proto': 'https' });
    expect(answer.headers['Set-Cookie']).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    const plain = await signIn(sim, { userId: 'user_alice' }, { 'x-forwarded-proto': 'http' });
    expect(plain.headers['Set-Cookie']).not.toContain('Secure');
  });

  it('takes a shorter lifetime, and refuses the token once it has passed on the virtual clock', async () => {
    const sim = freshSimulator();
    const answer = await signIn(sim, { userId: 'user_alice', maxAgeSeconds: 60 });
    expect(answer.headers['Set-Cookie']).toContain('; Max-Age=60;');
    const { token } = answer.json;
    sim.clock.advance(59_999);
    expect((await websites(sim, token)).status).toBe(200);
    sim.clock.advance(1);
    const expired = await websites(sim, token);
    expect(expired.status).toBe(401);
    expect(expired.json.hint).toMatch(/session expired/);
  });

  it('issues a new token at each sign-in, the same sequence for the same seed, none equal to a fixture token', async () => {
    const tokens = async (seed: number) => {
      const sim = freshSimulator({ seed });
      const out: string[] = [];
      for (const userId of ['user_alice', 'user_alice', 'user_bob']) out.push((await signIn(sim, { userId })).json.token);
      return { out, fixture: ['user_alice', 'user_bob', 'user_carol'].map((u) => sessionTokenOf(sim, u)) };
    };
    const a = await tokens(42);
    expect(new Set(a.out).size).toBe(3);
    expect((await tokens(42)).out).toEqual(a.out);
    for (const token of a.out) expect(a.fixture).not.toContain(token);
    const other = await tokens(9);
    for (const token of other.out) expect(a.out).not.toContain(token);
  });

  it('never shows an issued token in the fixtures, the journal or a refusal', async () => {
    const sim = freshSimulator();
    const { token } = (await signIn(sim, { userId: 'user_alice' })).json;
    await websites(sim, token);
    await call(sim, 'DELETE', '/__sim/sessions', { body: { token } });
    const refused = await websites(sim, token);
    for (const answer of [refused, await call(sim, 'GET', '/__sim/fixtures'), await call(sim, 'GET', '/__sim/journal')]) {
      expect(answer.text).not.toContain(token);
    }
  });

  it.each([
    [{}, 422, 'body.userId'],
    [{ userId: 'user_alice', email: 'alice@acme.io' }, 422, 'body.email'],
    [{ userId: 'user_alice', password: 'x' }, 422, 'body'],
    [{ userId: 'user_alice', maxAgeSeconds: 0 }, 422, 'body.maxAgeSeconds'],
    [{ userId: 42 }, 422, 'body.userId'],
  ])('refuses %j with %i naming %s', async (body, status, field) => {
    const answer = await signIn(freshSimulator(), body);
    expect(answer.status).toBe(status);
    expect(answer.json.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(answer.headers['Set-Cookie']).toBeUndefined();
  });

  it('answers 404 for a user that does not exist', async () => {
    const sim = freshSimulator();
    expect((await signIn(sim, { userId: 'user_mallory' })).json).toMatchObject({ code: 'NOT_FOUND', error: 'User not found' });
    expect((await signIn(sim, { email: 'mallory@example.com' })).status).toBe(404);
  });
});

describe('DELETE /__sim/sessions', () => {
  it('signs out the session of the request’s cookie and clears the cookie', async () => {
    const sim = freshSimulator();
    const { token } = (await signIn(sim, { userId: 'user_alice' })).json;
    const answer = await call(sim, 'DELETE', '/__sim/sessions', { headers: sessionCookie(token) });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ ok: true, signedOut: true });
    expect(answer.headers['Set-Cookie']).toBe('databuddy.session_token=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
    const refused = await websites(sim, token);
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe('AUTH_REQUIRED');
  });

  it('signs out a token named in the body, and says when there was nothing to sign out', async () => {
    const sim = freshSimulator();
    const { token } = (await signIn(sim, { userId: 'user_bob' })).json;
    expect((await call(sim, 'DELETE', '/__sim/sessions', { body: { token } })).json.signedOut).toBe(true);
    expect((await call(sim, 'DELETE', '/__sim/sessions', { body: { token } })).json.signedOut).toBe(false);
    const none = await call(sim, 'DELETE', '/__sim/sessions');
    expect(none.json.signedOut).toBe(false);
    expect(none.headers['Set-Cookie']).toContain('Max-Age=0');
  });

  it('leaves the user’s other sessions alone', async () => {
    const sim = freshSimulator();
    const first = (await signIn(sim, { userId: 'user_alice' })).json.token;
    const second = (await signIn(sim, { userId: 'user_alice' })).json.token;
    await call(sim, 'DELETE', '/__sim/sessions', { headers: sessionCookie(first) });
    expect((await websites(sim, first)).status).toBe(401);
    expect((await websites(sim, second)).status).toBe(200);
    expect((await websites(sim, sessionTokenOf(sim, 'user_alice'))).status).toBe(200);
  });

  it('signs out a fixture session until the next reset', async () => {
    const sim = freshSimulator();
    const fixture = sessionTokenOf(sim, 'user_carol');
    await call(sim, 'DELETE', '/__sim/sessions', { headers: sessionCookie(fixture) });
    expect((await websites(sim, fixture)).status).toBe(401);
    const users = (await call(sim, 'GET', '/__sim/fixtures')).json.users;
    expect(users.find((u: { id: string }) => u.id === 'user_carol').sessionToken).toBeNull();
    await call(sim, 'POST', '/__sim/reset');
    expect((await websites(sim, fixture)).status).toBe(200);
  });
});

describe('sessions and reset', () => {
  it('forgets issued sessions on reset and issues the same tokens again', async () => {
    const sim = freshSimulator();
    const { token } = (await signIn(sim, { userId: 'user_alice' })).json;
    await call(sim, 'POST', '/__sim/reset');
    expect((await websites(sim, token)).status).toBe(401);
    expect((await signIn(sim, { userId: 'user_alice' })).json.token).toBe(token);
  });
});

describe('sim.sessions, the in-process sign-in', () => {
  it('signs in and out like the control plane', async () => {
    const sim = freshSimulator();
    const session = sim.sessions.signIn({ email: 'bob@globex.com' });
    expect(session.user.id).toBe('user_bob');
    expect(session.cookie).toBe(`databuddy.session_token=${session.token}; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax`);
    expect((await websites(sim, session.token)).status).toBe(200);
    expect(sim.sessions.signOut(session.token)).toBe(true);
    expect((await websites(sim, session.token)).status).toBe(401);
    expect(() => sim.sessions.signIn({ userId: 'user_nope' })).toThrow(/User not found/);
  });
});
