import { describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/index.js';
import * as errors from '../../src/sim/errors.js';
import type { SimRequest } from '../../src/sim/messages.js';
import { secretOf } from '../helpers/sim.js';

/**
 * Every refusal says why, in the journal: its code, its message, the field at fault and the
 * fix, as the answer the client got says them. The table holds one request per error factory
 * of src/sim/errors.ts; a factory added without a row here fails the walk.
 */

const WEBSITE = { website_id: 'web_acme_www' };

/** A JSON request of `method` to `path` (a key's secret by id, or none). */
function request(sim: Simulator, method: string, path: string, options: { query?: Record<string, string>; key?: string; body?: unknown; headers?: Record<string, string> } = {}): SimRequest {
  const headers: Record<string, string> = { 'user-agent': 'node', ...options.headers };
  if (options.key) headers['x-api-key'] = secretOf(sim, options.key);
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  return { method, path, query: options.query ?? {}, headers, ...(body !== undefined ? { body } : {}) };
}

const query = (sim: Simulator, body: unknown, key = 'key_acme_read', q: Record<string, string> = WEBSITE) => request(sim, 'POST', '/v1/query', { query: q, key, body });
const SUMMARY = { parameters: ['summary_metrics'], preset: 'today' };

/** One way to meet each factory's refusal: the simulator to ask, the request, and the code the answer carries. */
interface Provocation {
  readonly make?: () => Simulator;
  readonly before?: (sim: Simulator) => Promise<void>;
  readonly send: (sim: Simulator) => SimRequest;
  readonly code: string;
  /** The fix the journal keeps when the answer may not say it (a store failure is the operator's business). */
  readonly journalFix?: RegExp;
}

const PROVOKED: Record<string, Provocation> = {
  authRequired: { send: (sim) => request(sim, 'GET', '/v1/query/websites'), code: 'AUTH_REQUIRED' },
  accessDenied: { send: (sim) => query(sim, SUMMARY, 'key_acme_read', { website_id: 'web_globex_intranet' }), code: 'ACCESS_DENIED' },
  forbidden: { send: (sim) => query(sim, SUMMARY, 'key_acme_track'), code: 'FORBIDDEN' },
  validationError: { send: (sim) => query(sim, { parameters: ['summary_metrics'], startDate: '2025-13-45', endDate: '2025-06-02' }), code: 'VALIDATION_ERROR' },
  schemaValidation: { send: (sim) => query(sim, { parameters: 'summary_metrics', preset: 'today' }), code: 'VALIDATION' },
  parseError: { send: (sim) => query(sim, '{"parameters": ['), code: 'PARSE' },
  payloadTooLarge: { send: (sim) => ({ ...query(sim, SUMMARY), bodyTooLarge: true }), code: 'PAYLOAD_TOO_LARGE' },
  unsupportedMediaType: { send: (sim) => request(sim, 'POST', '/v1/query', { query: WEBSITE, key: 'key_acme_read', body: 'x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), code: 'UNSUPPORTED_MEDIA_TYPE' },
  notFound: { send: (sim) => request(sim, 'GET', '/v1/nothing-here', { key: 'key_acme_read' }), code: 'NOT_FOUND' },
  methodNotAllowed: { send: (sim) => request(sim, 'DELETE', '/v1/query', { key: 'key_acme_read' }), code: 'METHOD_NOT_ALLOWED' },
  missingProjectId: { send: (sim) => query(sim, SUMMARY, 'key_acme_store_only', {}), code: 'MISSING_PROJECT_ID' },
  featureUnavailable: { send: (sim) => query(sim, { parameters: ['recent_errors'], preset: 'today' }, 'key_globex_read', { website_id: 'web_globex_news' }), code: 'FEATURE_UNAVAILABLE' },
  compilationError: { send: (sim) => request(sim, 'POST', '/v1/query/compile', { query: WEBSITE, key: 'key_acme_read', body: { projectId: 'web_acme_www', type: 'no_such_type', from: '2025-06-01', to: '2025-06-02' } }), code: 'COMPILATION_ERROR' },
  rateLimited: {
    before: async (sim) => {
      for (let i = 0; i < 10; i++) await sim.handle(request(sim, 'GET', '/v1/query/websites', { key: 'key_acme_quota' }));
    },
    send: (sim) => request(sim, 'GET', '/v1/query/websites', { key: 'key_acme_quota' }),
    code: 'RATE_LIMITED',
  },
  basketError: { make: () => createSimulator({ seed: 42, profile: 'live' }), send: (sim) => request(sim, 'POST', '/track', { body: { name: 'x' } }), code: 'basket.TRACK_MISSING_CREDENTIALS' },
  serviceUnavailable: {
    make: () => createSimulator({ seed: 42, store: { consume: () => { throw new Error('down'); }, clear: () => undefined, size: () => 0 } }),
    send: (sim) => request(sim, 'GET', '/v1/query/websites', { key: 'key_acme_quota' }),
    code: 'SERVICE_UNAVAILABLE',
    journalFix: /^Bring the admission store back/,
  },
  conflict: { send: (sim) => request(sim, 'POST', '/v1/flags', { key: 'key_acme_all', body: { key: 'Dark-Mode' } }), code: 'CONFLICT' },
  injectedError: {
    before: async (sim) => {
      sim.scenarios.start({ name: 'broken', steps: [{ match: { route: '/v1/query' }, effect: { type: 'error', status: 502, code: 'BAD_GATEWAY', message: 'Upstream is down' } }] });
    },
    send: (sim) => query(sim, SUMMARY),
    code: 'BAD_GATEWAY',
  },
  invalidEventSchema: { send: (sim) => request(sim, 'POST', '/track', { key: 'key_acme_track', body: { name: '', websiteId: 'web_acme_www' } }), code: 'INVALID_EVENT_SCHEMA' },
  eventStorageFull: {
    make: () => createSimulator({ seed: 42, eventStorage: { maxEvents: 0 } }),
    send: (sim) => request(sim, 'POST', '/track', { key: 'key_acme_track', body: { name: 'full', websiteId: 'web_acme_www' } }),
    code: 'EVENT_STORAGE_FULL',
  },
};

/** Factories whose refusals never reach the core's journal, and why. */
const NOT_JOURNALED: Record<string, string> = {
  unreadableRequest: 'the HTTP server answers an unreadable request line or headers before the core sees a request',
  requestTimeout: 'the HTTP server answers 408 before the request is whole',
  expectationFailed: 'the HTTP server answers an Expect header it does not take',
  headersTooLarge: 'the HTTP server answers 431 before the core sees a request',
  internalError: 'a bug: the run loop journals it with this reason (no request provokes one on purpose)',
};

/** Exports of errors.ts that build no refusal. */
const NOT_FACTORIES = new Set(['liveAuthChallenge']);

describe('every refusal says why in the journal', () => {
  it('has a provoking request (or a reason it is never journaled) for every error factory', () => {
    const factories = Object.entries(errors)
      .filter(([name, value]) => typeof value === 'function' && !NOT_FACTORIES.has(name))
      .map(([name]) => name)
      .sort();
    const covered = [...Object.keys(PROVOKED), ...Object.keys(NOT_JOURNALED)].sort();
    expect(factories).toEqual(covered);
  });

  it.each(Object.entries(PROVOKED))('journals %s with its code, message and fix as the answer said them', async (_name, provocation) => {
    const sim = provocation.make?.() ?? createSimulator({ seed: 42 });
    await provocation.before?.(sim);
    const answer = await sim.handle(provocation.send(sim));
    expect(answer.status).toBeGreaterThanOrEqual(400);
    const body = JSON.parse(answer.body) as { code: string; error?: string; message?: string; hint?: string; fix?: string };
    expect(body.code).toBe(provocation.code);
    const entry = sim.journal.list({}).at(-1);
    expect(entry?.reason).toMatchObject({ code: provocation.code });
    expect(entry?.reason?.message).toBe(body.message ?? body.error);
    if (provocation.journalFix) {
      expect(body.hint ?? body.fix).toBeUndefined();
      expect(entry?.reason?.fix).toMatch(provocation.journalFix);
    } else {
      expect(entry?.reason?.fix).toBe(body.hint ?? body.fix ?? null);
    }
    const listed = JSON.parse((await sim.handle(request(sim, 'GET', '/__sim/journal'))).body) as { entries: { reason: unknown }[] };
    expect(listed.entries.at(-1)?.reason).toEqual(entry?.reason);
  });

  it('names the field at fault, what was wrong with it and the fix: a wall-clock timestamp on a virtual clock in the past', async () => {
    const sim = createSimulator({ seed: 42 });
    await sim.handle(request(sim, 'POST', '/track', { key: 'key_acme_track', body: [{ name: 'sdk_now', timestamp: Date.UTC(2026, 10, 29), websiteId: 'web_acme_www' }] }));
    const reason = sim.journal.list({}).at(-1)?.reason;
    expect(reason).toMatchObject({ code: 'INVALID_EVENT_SCHEMA', field: 'body[0].timestamp' });
    expect(reason?.cause).toContain('Timestamp outside accepted range');
    expect(reason?.fix).toContain("one hour after the simulator's clock (GET /__sim/clock)");
  });

  it('journals a dropped connection as CONNECTION_RESET, and an answered request with no reason', async () => {
    const sim = createSimulator({ seed: 42 });
    expect((await sim.handle(query(sim, SUMMARY))).status).toBe(200);
    expect(sim.journal.list({}).at(-1)?.reason).toBeNull();
    sim.scenarios.start({ name: 'drops', steps: [{ match: { route: '/v1/query' }, effect: { type: 'reset' } }] });
    expect((await sim.handle(query(sim, SUMMARY))).abort).toBe(true);
    expect(sim.journal.list({}).at(-1)?.reason).toMatchObject({ code: 'CONNECTION_RESET' });
  });
});
