import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/index.js';
import { call, secretOf } from '../../helpers/sim.js';

/** A website id that is wrong says which one, and the nearest the caller reaches; one that belongs elsewhere says where it goes. */
describe('website ids explain themselves', () => {
  const sim = createSimulator({ seed: 42 });
  const ask = (websiteId: string, key = 'key_acme_read', body: Record<string, unknown> = { parameters: ['summary_metrics'], preset: 'today' }) =>
    call(sim, 'POST', '/v1/query', { key: secretOf(sim, key), query: { website_id: websiteId }, body });

  it('answers a typo in website_id with 403 ACCESS_DENIED naming the id and the nearest website the key reaches', async () => {
    const answer = await ask('web_acme_wwww');
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code: 'ACCESS_DENIED', error: 'Access denied to this website' });
    expect(answer.json.hint).toBe("This credential reaches no website 'web_acme_wwww'; did you mean 'web_acme_www'? GET /v1/query/websites lists the websites it reaches.");
  });

  it('says the same of a website of another organization as of one that does not exist, so the hint reveals nothing', async () => {
    const foreign = await ask('web_globex_intranet');
    const missing = await ask('web_globex_intranot');
    expect([foreign.status, missing.status]).toEqual([403, 403]);
    expect(foreign.json.hint?.replace('web_globex_intranet', 'X')).toBe(missing.json.hint?.replace('web_globex_intranot', 'X'));
    // No other website of that organization is named: only the id asked and the key's own.
    expect(foreign.json.hint).toBe("This credential reaches no website 'web_globex_intranet'. GET /v1/query/websites lists the websites it reaches.");
  });

  it('points a websiteId sent in the body to the query string, in a Warning', async () => {
    const answer = await call(sim, 'POST', '/v1/query', {
      key: secretOf(sim, 'key_acme_read'),
      query: { website_id: 'web_acme_www' },
      body: { parameters: ['summary_metrics'], preset: 'today', websiteId: 'web_acme_store' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.Warning).toContain('body.websiteId: websiteId is not a field of this request and was ignored');
    expect(answer.headers.Warning).toContain('It belongs in the query string: ?website_id=');
  });
});
