import { describe, expect, it } from 'vitest';
import { sharedSimulatorsDuringSuite } from '../helpers/shared-simulators.js';
import { BUILT_IN_SCENARIOS } from '../../src/scenarios/registry.js';
import { call, secretOf } from '../helpers/sim.js';

/**
 * The ingestion routes beside /track change state, so with a shared store each request is
 * logged and replayed by every process: what one process accepted, any other answers.
 */
const shared = sharedSimulatorsDuringSuite('shared-ingest');

describe('the ingestion routes with several processes sharing one Redis store', () => {
  it('answers on B what /identify, /mcp and /ai-traffic accepted on A', async () => {
    const [a, b] = await shared(2, { catalog: BUILT_IN_SCENARIOS });
    const key = secretOf(a, 'key_acme_track');
    const identified = await call(a, 'POST', '/identify', { key, body: { profileId: 'shared_user', anonymousId: 'anon_shared', traits: { name: 'Shared' }, websiteId: 'web_acme_store' } });
    expect(identified.json).toEqual({ status: 'success', type: 'identify' });
    const profiles = await call(b, 'GET', '/__sim/profiles', { query: { website_id: 'web_acme_store' } });
    expect(profiles.json.profiles).toEqual([expect.objectContaining({ profileId: 'shared_user', displayName: 'Shared', anonymousIds: ['anon_shared'] })]);

    const accepted = await call(a, 'POST', '/mcp', { key, body: [{ tool: 'shared_tool', durationMs: 9, websiteId: 'web_acme_store', timestamp: Date.UTC(2025, 5, 2, 11) }] });
    expect(accepted.status).toBe(202);
    const tools = await call(b, 'POST', '/v1/query', {
      key: secretOf(b, 'key_acme_read'),
      query: { website_id: 'web_acme_store' },
      body: { parameters: ['mcp_tools'], startDate: '2025-06-02', endDate: '2025-06-02', filters: [{ field: 'tool', op: 'eq', value: 'shared_tool' }] },
    });
    expect(tools.json.data[0].data).toEqual([expect.objectContaining({ tool: 'shared_tool', calls: 1 })]);

    const check = await call(a, 'POST', '/ai-traffic', { body: { websiteId: 'web_acme_store', host: 'store.acme.io', path: '/', userAgent: 'DatabuddySetupCheck/shared-1' } });
    expect(check.status).toBe(202);
    expect((await call(b, 'GET', '/ai-traffic/setup-check/web_acme_store/shared-1')).json).toEqual({ recorded: true });
  });
});
