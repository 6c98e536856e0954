import { createHash } from 'node:crypto';
import { createSeededWorld, type World } from '../../../src/index.js';
import { SCOPES, type Scope } from '../../../src/contract/scopes.js';
import { sessionCookie, sessionTokenOf } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf, type Answer, type CallOptions } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/sim/simulator.js';

type KeyRecord = World['apiKeys'][number];

interface ExtraKey {
  readonly id: string;
  readonly organizationId: string;
  readonly userId: string;
  readonly scopes: readonly Scope[];
  readonly websiteIds: readonly string[] | null;
}

/**
 * Keys the fixture world lacks, added through `createWorld` (part of the public options):
 * management scopes on a website-restricted key, a Globex key with every scope, and single-scope
 * Acme keys to tell read scopes from write scopes.
 */
export const EXTRA_KEYS: readonly ExtraKey[] = [
  { id: 'key_acme_store_manage', organizationId: 'org_acme', userId: 'user_alice', scopes: SCOPES, websiteIds: ['web_acme_store'] },
  { id: 'key_globex_all', organizationId: 'org_globex', userId: 'user_bob', scopes: SCOPES, websiteIds: null },
  ...SCOPES.map((scope) => ({
    id: `key_acme_only_${scope.replace(':', '_')}`,
    organizationId: 'org_acme',
    userId: 'user_alice',
    scopes: [scope],
    websiteIds: null,
  })),
];

/** The id of the Acme key that holds only `scope`. */
export function onlyScope(scope: Scope): string {
  return `key_acme_only_${scope.replace(':', '_')}`;
}

function secretFor(seed: string, id: string): string {
  const digest = createHash('sha256').update(`${seed}/${id}`).digest('hex');
  return `dbdy_${(digest + digest).slice(0, 48)}`;
}

/** The seeded world plus {@link EXTRA_KEYS}. */
export function worldWithExtraKeys(seed: string): World {
  const world = createSeededWorld(seed);
  const template = world.apiKeys[0] as KeyRecord;
  const records: KeyRecord[] = EXTRA_KEYS.map((k) => {
    const secret = secretFor(seed, k.id);
    return {
      ...template,
      id: k.id,
      name: k.id,
      organizationId: k.organizationId,
      userId: k.userId,
      start: secret.slice(0, 8),
      keyHash: createHash('sha256').update(secret).digest('hex'),
      scopes: [...k.scopes],
      websiteIds: k.websiteIds,
      enabled: true,
      revokedAt: null,
      expiresAt: null,
      rateLimitEnabled: false,
      rateLimitMax: null,
      rateLimitTimeWindow: null,
    };
  });
  return {
    ...world,
    apiKeys: [...world.apiKeys, ...records],
    fixtureKeys: [...world.fixtureKeys, ...EXTRA_KEYS.map((k) => ({ id: k.id, secret: secretFor(seed, k.id), purpose: 'test' }))],
  };
}

/** A fresh simulator over {@link worldWithExtraKeys}, seed 42, virtual clock. */
export function manageSimulator(): Simulator {
  return freshSimulator({ createWorld: worldWithExtraKeys });
}

/** A caller: an API key by fixture id, a user's session, or nobody. */
export type Who = { key: string } | { user: string } | 'anonymous';

/** A client bound to one simulator and one caller. */
export interface Client {
  get(path: string, query?: Record<string, string>): Promise<Answer>;
  post(path: string, body?: unknown, query?: Record<string, string>): Promise<Answer>;
  patch(path: string, body: unknown, query?: Record<string, string>): Promise<Answer>;
  put(path: string, body: unknown, query?: Record<string, string>): Promise<Answer>;
  delete(path: string, query?: Record<string, string>): Promise<Answer>;
}

/** Sends requests as `who`. */
export function as(sim: Simulator, who: Who): Client {
  const credentials = (): CallOptions => {
    if (who === 'anonymous') return {};
    if ('key' in who) return { key: secretOf(sim, who.key) };
    return { headers: sessionCookie(sessionTokenOf(sim, who.user)) };
  };
  const send = (method: string, path: string, body: unknown, query: Record<string, string> = {}) =>
    call(sim, method, path, { ...credentials(), query, ...(body !== undefined ? { body } : {}) });
  return {
    get: (path, query) => send('GET', path, undefined, query),
    post: (path, body, query) => send('POST', path, body, query),
    patch: (path, body, query) => send('PATCH', path, body, query),
    put: (path, body, query) => send('PUT', path, body, query),
    delete: (path, query) => send('DELETE', path, undefined, query),
  };
}

/** Expects an error answer: status and code. */
export function refusal(answer: Answer): { status: number; code: string } {
  return { status: answer.status, code: answer.json?.code };
}

/** The ISO 8601 form with milliseconds every timestamp has. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
