import { describe, expect, it } from 'vitest';
import { createSeededWorld } from '../../../src/fixtures/world.js';
import { sharedSimulatorsDuringSuite } from '../../helpers/shared-simulators.js';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';

/**
 * A bug in the simulator (a stage or a handler that throws) is answered 500 with the SPEC body,
 * and the journal and the adapter's log say it was a bug and of what class, never its words
 * (a message may carry request data).
 */
describe('a request a bug in the simulator breaks', () => {
  const shared = sharedSimulatorsDuringSuite('bug-answers');
  /** Once `breaking`, the website `web_acme_store` throws when its name is read, as a bug in a handler would. */
  let breaking = false;
  /** What it throws: a RangeError, or a value whose own fields throw when read. */
  let thrown: () => unknown = () => new RangeError('secret-looking words from a request');
  const brokenWorld = (seed: string) => {
    const world = createSeededWorld(seed);
    const websites = world.websites.map((site) => {
      if (site.id !== 'web_acme_store') return site;
      const broken = { ...site };
      Object.defineProperty(broken, 'name', {
        enumerable: true,
        get() {
          if (breaking) throw thrown();
          return site.name;
        },
      });
      return broken;
    });
    return { ...world, websites };
  };

  it('answers 500 INTERNAL_SERVER_ERROR, and the journal names a bug and the failure class, not its message', async () => {
    const sim = freshSimulator({ createWorld: brokenWorld });
    const key = secretOf(sim, 'key_acme_read');
    breaking = true;
    const answer = await call(sim, 'GET', '/v1/query/websites', { key }).finally(() => (breaking = false));
    expect(answer.status).toBe(500);
    expect(answer.json).toMatchObject({ success: false, code: 'INTERNAL_SERVER_ERROR' });
    expect(answer.text).not.toContain('secret-looking');
    const [entry] = (await call(sim, 'GET', '/__sim/journal', { query: { limit: '1' } })).json.entries;
    expect(entry).toMatchObject({ status: 500, requestId: answer.json.requestId });
    expect(entry.reason).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', cause: 'a bug in the simulator (RangeError)', fix: 'report it with the request that met it' });
    expect(JSON.stringify(entry)).not.toContain('secret-looking');
  });

  it('names the bug the same way with a shared store, where a request that changes state runs its handler as the log applies it', async () => {
    const [sim] = await shared(2, { createWorld: brokenWorld });
    const key = secretOf(sim, 'key_acme_all');
    breaking = true;
    const answer = await call(sim, 'PATCH', '/v1/websites/web_acme_store', { key, body: { isPublic: true } }).finally(() => (breaking = false));
    expect(answer.status).toBe(500);
    expect(answer.json).toMatchObject({ success: false, code: 'INTERNAL_SERVER_ERROR' });
    expect(answer.text).not.toContain('secret-looking');
    const [entry] = (await call(sim, 'GET', '/__sim/journal', { query: { limit: '1' } })).json.entries;
    expect(entry).toMatchObject({ status: 500, requestId: answer.json.requestId });
    expect(entry.reason).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', cause: 'a bug in the simulator (RangeError)' });
  });

  it('answers 500 when what was thrown cannot even be read, and says so', async () => {
    const sim = freshSimulator({ createWorld: brokenWorld });
    const key = secretOf(sim, 'key_acme_read');
    const rangeError = thrown;
    thrown = () =>
      new Proxy(
        {},
        {
          get() {
            throw new TypeError('secret-looking words from a request');
          },
        },
      );
    breaking = true;
    const answer = await call(sim, 'GET', '/v1/query/websites', { key }).finally(() => {
      breaking = false;
      thrown = rangeError;
    });
    expect(answer.status).toBe(500);
    const [entry] = (await call(sim, 'GET', '/__sim/journal', { query: { limit: '1' } })).json.entries;
    expect(entry.reason).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', cause: 'a bug in the simulator (an unnamed failure)' });
    expect(JSON.stringify(entry)).not.toContain('secret-looking');
  });
});
