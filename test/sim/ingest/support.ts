import { createHash } from 'node:crypto';
import { createSeededWorld, type Simulator, type SimulatorOptions, type World } from '../../../src/index.js';
import { call, freshSimulator, type Answer } from '../../helpers/sim.js';

/** The virtual clock's default start: 2025-06-02T12:00:00Z. */
export const NOW = Date.UTC(2025, 5, 2, 12, 0, 0);

/** A website-restricted key with track:events (on web_acme_store and web_acme_docs), added by {@link trackWorld}. */
export const RESTRICTED_TRACK_KEY = { id: 'key_test_track_store', secret: `dbdy_${'R'.repeat(24)}${'s'.repeat(24)}` } as const;

/** A global key with track:events on Globex, added by {@link trackWorld}. */
export const GLOBEX_TRACK_KEY = { id: 'key_test_track_globex', secret: `dbdy_${'G'.repeat(24)}${'x'.repeat(24)}` } as const;

type ApiKeyRecord = World['apiKeys'][number];

function keyRecord(base: ApiKeyRecord, id: string, secret: string, changes: Partial<ApiKeyRecord>): ApiKeyRecord {
  return {
    ...base,
    id,
    name: id,
    start: secret.slice(0, 8),
    keyHash: createHash('sha256').update(secret).digest('hex'),
    ...changes,
  };
}

/**
 * The seeded world plus two track:events keys the fixtures do not have: one restricted to
 * web_acme_store and web_acme_docs, one global on Globex (the key format and its SHA-256
 * storage are the world's public shape).
 */
export function trackWorld(seed: string): World {
  const world = createSeededWorld(seed);
  const base = world.apiKeys.find((k) => k.id === 'key_acme_track') as ApiKeyRecord;
  return {
    ...world,
    apiKeys: [
      ...world.apiKeys,
      keyRecord(base, RESTRICTED_TRACK_KEY.id, RESTRICTED_TRACK_KEY.secret, { websiteIds: ['web_acme_store', 'web_acme_docs'] }),
      keyRecord(base, GLOBEX_TRACK_KEY.id, GLOBEX_TRACK_KEY.secret, { organizationId: 'org_globex', userId: 'user_bob' }),
    ],
  };
}

/** A simulator over {@link trackWorld}. */
export function trackSimulator(options: Partial<SimulatorOptions> = {}): Simulator {
  return freshSimulator({ createWorld: trackWorld, ...options });
}

export interface TrackOptions {
  key?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

/** `POST /track` with a JSON body (or raw text). */
export function track(sim: Simulator, body: unknown, options: TrackOptions = {}): Promise<Answer> {
  return call(sim, 'POST', '/track', {
    body,
    ...(options.key ? { key: options.key } : {}),
    ...(options.query ? { query: options.query } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

/** One event at a fixed instant of the virtual day. */
export function event(name: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, timestamp: NOW - 3_600_000, ...fields };
}

export interface EventRow {
  name: string;
  total_events: number;
  unique_users: number;
  unique_sessions: number;
  first_occurrence: string;
  last_occurrence: string;
  percentage: number;
}

/**
 * Rows of one custom-event type for a website (`website_id`) or an organization
 * (`organization_id`), read with key_acme_read unless another key is given.
 */
export async function queryRows<Row = EventRow>(
  sim: Simulator,
  key: string,
  ids: Record<string, string>,
  body: Record<string, unknown>,
  type = 'custom_events',
): Promise<Row[]> {
  const answer = await call(sim, 'POST', '/v1/query', { key, query: ids, body: { parameters: [type], limit: 10_000, ...body } });
  if (answer.status !== 200) throw new Error(`query answered ${answer.status}: ${answer.text}`);
  return answer.json.data[0].data as Row[];
}

/** The row of one event name, or undefined. */
export function rowOf(rows: readonly EventRow[], name: string): EventRow | undefined {
  return rows.find((r) => r.name === name);
}
