import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/index.js';
import { call, secretOf } from '../../helpers/sim.js';

/** A date the query cannot read says which forms it takes; a misspelt field says so in the answer. */
describe('dates explain themselves', () => {
  const sim = createSimulator({ seed: 42 });
  const ask = (body: Record<string, unknown>) => call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: { website_id: 'web_acme_www' }, body });

  it('names the accepted forms for a date written with slashes, with both of its readings', async () => {
    const answer = await ask({ parameters: ['summary_metrics'], startDate: '06/01/2025', endDate: '2025-06-02' });
    expect(answer.status).toBe(400);
    // The service's own words in the error and the details; the forms in the hint.
    expect(answer.json.error).toBe('Invalid date: 06/01/2025. Could not parse as a valid date');
    expect(answer.json.details).toEqual([{ field: 'startDate', message: 'Invalid date: 06/01/2025. Could not parse as a valid date' }]);
    expect(answer.json.hint).toContain('startDate: Use YYYY-MM-DD (2025-06-01) or an ISO 8601 instant');
    expect(answer.json.hint).toContain('2025-06-01 if the month comes first, 2025-01-06 if the day does');
  });

  it('refuses epoch milliseconds with the conversion to send instead', async () => {
    const answer = await ask({ parameters: ['summary_metrics'], startDate: 1748822400000, endDate: '2025-06-02' });
    expect(answer.status).toBe(422);
    expect(answer.json.details).toContainEqual(
      expect.objectContaining({ field: 'body.startDate', message: 'startDate takes a date as text, YYYY-MM-DD or ISO 8601, not a number: for epoch milliseconds send new Date(ms).toISOString()' }),
    );
  });

  it('says in the answer, not only in a Warning, that start_date was ignored and startDate was meant', async () => {
    const answer = await ask({ parameters: ['summary_metrics'], start_date: '2025-06-01', end_date: '2025-06-02' });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('Either startDate or preset is required');
    expect(answer.json.hint).toContain("body.start_date (Did you mean 'startDate'?)");
    expect(answer.json.hint).toContain("body.end_date (Did you mean 'endDate'?)");
  });
});
