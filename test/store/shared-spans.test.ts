import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/index.js';
import { sharedSimulatorsDuringSuite } from '../helpers/shared-simulators.js';
import { call, secretOf } from '../helpers/sim.js';
import { errorSpan, postSpans } from '../sim/ingest/span-support.js';

/** Two simulators sharing one Redis prefix, as two processes of `serve --workers 2`. */
const shared = sharedSimulatorsDuringSuite('spans');

describe('spans posted to one process of a shared simulator', () => {
  it('answers recent_errors on the other with the error posted to the first, and drops its repeated eventId there too', async () => {
    const [a, b] = await shared(2, { profile: 'live' });
    const message = 'Span test: checkout button exploded';
    const query = async (sim: Simulator) => {
      const answer = await call(sim, 'POST', '/v1/query', {
        key: secretOf(sim, 'key_acme_read'),
        query: { website_id: 'web_acme_store' },
        body: { parameters: ['recent_errors'], startDate: '2025-06-02', endDate: '2025-06-02', filters: [{ field: 'message', op: 'eq', value: message }] },
      });
      return answer.json.data[0].data as { message: string; path: string }[];
    };
    expect((await postSpans(a, '/errors', [errorSpan({ eventId: 'evt-shared-1' })])).status).toBe(200);
    expect((await postSpans(b, '/errors', [errorSpan({ eventId: 'evt-shared-1' })])).json).toEqual({ status: 'success', type: 'error', count: 1 });
    const rows = await query(b);
    expect(rows.map((r) => [r.message, r.path])).toEqual([[message, '/checkout']]);
    expect(await query(a)).toEqual(rows);
  });
});
