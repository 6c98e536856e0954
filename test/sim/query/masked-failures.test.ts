import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/index.js';
import type { Profile } from '../../../src/sim/profile.js';
import { call, secretOf } from '../../helpers/sim.js';

/**
 * Where the live service fails a parameter with nothing but "Query execution failed", the
 * simulator answers the same, and says the real cause in a Warning header and in the journal.
 */
describe.each(['spec', 'live'] as const)('a parameter the service fails with "Query execution failed", under %s', (profile: Profile) => {
  async function ask(body: Record<string, unknown>) {
    const sim = createSimulator({ seed: 42, profile });
    const answer = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: { website_id: 'web_acme_store' }, body });
    const journal = await call(sim, 'GET', '/__sim/journal', { query: { route: '/v1/query' } });
    return { answer, warnings: journal.json.entries.at(-1).warnings as string[] };
  }

  it('names the missing session_id filter of session_events in a Warning and in the journal', async () => {
    const { answer, warnings } = await ask({ parameters: ['session_events'], preset: 'today' });
    expect(answer.status).toBe(200);
    expect(answer.json.data).toEqual([{ parameter: 'session_events', success: false, error: 'Query execution failed', data: [] }]);
    expect(answer.headers.Warning).toContain(`session_events: the service fails session_events with only 'Query execution failed'; the cause: Missing required filter: 'session_id'.`);
    expect(warnings).toEqual([expect.stringContaining("Missing required filter: 'session_id'.")]);
  });

  it('names the missing anonymous_id filter of profile_detail, and keeps the other parameter of the batch', async () => {
    const { answer, warnings } = await ask({ parameters: ['summary_metrics', { name: 'profile_detail', id: 'who' }], preset: 'today' });
    expect(answer.json.data.map((p: { parameter: string; success: boolean }) => [p.parameter, p.success])).toEqual([
      ['summary_metrics', true],
      ['who', false],
    ]);
    expect(answer.headers.Warning).toContain("who: the service fails profile_detail with only");
    expect(warnings).toEqual([expect.stringContaining("Missing required filter: 'anonymous_id'.")]);
  });

  it('names the field a sortBy cannot order by', async () => {
    const { answer, warnings } = await ask({ parameters: ['top_pages'], preset: 'today', sortBy: 'bogus', sortOrder: 'desc' });
    expect(answer.json.data[0]).toMatchObject({ success: false, error: 'Query execution failed' });
    expect(warnings).toEqual([expect.stringContaining("Ordering by 'bogus DESC' is not permitted")]);
  });
});
