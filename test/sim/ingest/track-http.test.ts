import { describe, expect, it } from 'vitest';
import { freshSimulator, secretOf } from '../../helpers/sim.js';
import { fetchAnswer } from '../../helpers/wire.js';
import { event } from './support.js';
import { serveDuringSuite } from '../../helpers/suite-server.js';

describe('POST /track over HTTP', () => {
  const sim = freshSimulator();
  const server = serveDuringSuite(sim);

  it('accepts a JSON batch with a bearer key', async () => {
    const answer = await fetchAnswer(`${server.url}/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secretOf(sim, 'key_acme_track')}` },
      body: JSON.stringify([event('wire', { websiteId: 'web_acme_www' }), event('wire', { websiteId: 'web_acme_www' })]),
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: 'success', type: 'custom_event', count: 2 });
  });

  it('accepts a text/plain beacon naming its website in the query string', async () => {
    const answer = await fetchAnswer(`${server.url}/track?website_id=web_acme_blog`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify(event('beacon')),
    });
    expect(answer.status).toBe(200);
    expect(answer.json.count).toBe(1);
  });

  it('answers a bot with 204 and no body at all', async () => {
    const answer = await fetchAnswer(`${server.url}/track?website_id=web_acme_blog`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (compatible; AhrefsBot/7.0)' },
      body: JSON.stringify(event('crawl')),
    });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(answer.headers['x-request-id']).toMatch(/^req_/);
  });

  it('refuses a body over 1 MB with 413 PAYLOAD_TOO_LARGE', async () => {
    const answer = await fetchAnswer(`${server.url}/track?website_id=web_acme_blog`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([event('big', { properties: { blob: 'x'.repeat(1_000_001) } })]),
    });
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE', error: 'Payload too large' });
  });
});
