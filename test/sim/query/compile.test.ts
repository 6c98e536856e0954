import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';
import { runCompile, WWW } from './support.js';

const sim = freshSimulator();
const BASE = { projectId: 'web_acme_www', type: 'top_pages', from: '2025-05-01', to: '2025-05-07' };

describe('POST /v1/query/compile', () => {
  it('returns success, the request id, SQL text and the parameters to bind', async () => {
    const res = await runCompile(sim, BASE);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['success', 'requestId', 'sql', 'params']);
    expect(res.json.success).toBe(true);
    expect(res.json.requestId).toBe(res.headers['X-Request-ID']);
    expect(typeof res.json.sql).toBe('string');
    expect(res.json.sql).toMatch(/^SELECT /);
    expect(res.json.sql).toMatch(/\bFROM\b/);
  });

  it("binds websiteId, day-padded from/to, timezone and, without a requested limit, the builder's own limit of top_pages (no offset on the first page)", async () => {
    const res = await runCompile(sim, BASE);
    expect(res.json.params).toEqual({
      websiteId: 'web_acme_www',
      from: '2025-05-01 00:00:00',
      to: '2025-05-07 23:59:59',
      timezone: 'UTC',
      limit: 100,
    });
    expect(res.json.sql).toMatch(/\nLIMIT \{limit:UInt32\}$/);
  });

  it('injects no default limit under either profile: a type whose builder sets none compiles without LIMIT, and OFFSET appears only past the first row', async () => {
    for (const profile of ['spec', 'live'] as const) {
      const own = freshSimulator({ profile });
      const bare = await runCompile(own, { ...BASE, type: 'entry_pages' });
      expect(bare.status).toBe(200);
      expect(bare.json.params).not.toHaveProperty('limit');
      expect(bare.json.params).not.toHaveProperty('offset');
      expect(bare.json.sql).not.toMatch(/LIMIT|OFFSET/);
      const zero = await runCompile(own, { ...BASE, type: 'entry_pages', offset: 0 });
      expect(zero.json.sql).not.toMatch(/OFFSET/);
      const paged = await runCompile(own, { ...BASE, type: 'entry_pages', limit: 20, offset: 40 });
      expect(paged.json.params).toEqual(expect.objectContaining({ limit: 20, offset: 40 }));
      expect(paged.json.sql).toMatch(/\nLIMIT \{limit:UInt32\}\nOFFSET \{offset:UInt32\}$/);
      const own20 = await runCompile(own, { ...BASE, type: 'device_types' });
      expect(own20.json.params.limit, profile).toBe(20);
    }
  });

  it('uses placeholders for every bound value instead of inlining them', async () => {
    const res = await runCompile(sim, { ...BASE, filters: [{ field: 'country', op: 'eq', value: "US' OR 1=1 --" }], offset: 100 });
    const sql = res.json.sql as string;
    for (const name of ['websiteId', 'from', 'to', 'limit', 'offset', 'f0']) expect(sql).toContain(`{${name}:`);
    expect(sql).not.toContain('web_acme_www');
    expect(sql).not.toContain('2025-05-01');
    expect(sql).not.toContain('OR 1=1');
    expect(res.json.params.f0).toBe("US' OR 1=1 --");
  });

  it('does not check projectId against website_id: the projectId sent is bound as websiteId, whatever website the query string names', async () => {
    for (const projectId of ['web_acme_store', 'web_globex_main', 'not_a_website']) {
      const res = await runCompile(sim, { ...BASE, projectId });
      expect(res.status, projectId).toBe(200);
      expect(res.json.params.websiteId).toBe(projectId);
    }
  });

  it('takes the timezone from the timezone query parameter', async () => {
    const res = await runCompile(sim, BASE, { ...WWW, timezone: 'Europe/Berlin' });
    expect(res.json.params.timezone).toBe('Europe/Berlin');
  });

  it('falls back to UTC for an invalid timezone', async () => {
    const res = await runCompile(sim, BASE, { ...WWW, timezone: 'Mars/Olympus' });
    expect(res.status).toBe(200);
    expect(res.json.params.timezone).toBe('UTC');
  });

  it('binds each allowed filter as f0…fN, in order, with the value shapes of its operator', async () => {
    const res = await runCompile(sim, {
      ...BASE,
      filters: [
        { field: 'country', op: 'eq', value: 'US' },
        { field: 'browser_name', op: 'in', value: ['Chrome', 'Safari'] },
        { field: 'path', op: 'starts_with', value: '/blog' },
        { field: 'os_name', op: 'not_in', value: 'iOS' },
      ],
    });
    expect(res.json.params).toEqual(
      expect.objectContaining({ f0: 'US', f1: ['Chrome', 'Safari'], f2: '/blog%', f3: ['iOS'] }),
    );
    expect(res.json.params).not.toHaveProperty('f4');
    const sql = res.json.sql as string;
    expect(sql.indexOf('{f0:')).toBeLessThan(sql.indexOf('{f1:'));
    expect(sql).toMatch(/IN \{f1:Array\(String\)\}/);
    expect(sql).toMatch(/NOT IN \{f3:Array\(String\)\}/);
  });

  it('escapes LIKE wildcards in contains values', async () => {
    const res = await runCompile(sim, { ...BASE, filters: [{ field: 'path', op: 'contains', value: '50%_off' }] });
    expect(res.json.params.f0).toBe('%50\\%\\_off%');
  });

  it('skips filters on fields the type does not allow and keeps the numbering dense', async () => {
    const res = await runCompile(sim, {
      ...BASE,
      filters: [
        { field: 'event_name', op: 'eq', value: 'signup' },
        { field: 'country', op: 'eq', value: 'DE' },
      ],
    });
    expect(res.json.params.f0).toBe('DE');
    expect(res.json.params).not.toHaveProperty('f1');
    expect(res.json.sql).not.toContain('event_name = {');
  });

  it('binds limit and offset from the request', async () => {
    const res = await runCompile(sim, { ...BASE, limit: 25, offset: 50 });
    expect(res.json.params).toEqual(expect.objectContaining({ limit: 25, offset: 50 }));
  });

  it('normalizes ISO datetimes to YYYY-MM-DD HH:MM:SS in UTC', async () => {
    const res = await runCompile(sim, { ...BASE, from: '2025-05-01T10:30:00Z', to: '2025-05-02T08:00:00+02:00' });
    expect(res.json.params.from).toBe('2025-05-01 10:30:00');
    expect(res.json.params.to).toBe('2025-05-02 06:00:00');
  });

  it('buckets by the requested time unit', async () => {
    const res = await runCompile(sim, { ...BASE, type: 'events_by_date', timeUnit: 'hour' });
    expect(res.status).toBe(200);
    expect(res.json.sql).toMatch(/HOUR/);
  });

  it('compiles uptime_time_series in hourly buckets by default, and by the minute or the day when timeUnit asks', async () => {
    const bucket = async (timeUnit?: string): Promise<string> => {
      const res = await runCompile(sim, { ...BASE, projectId: 'mon_acme_store', type: 'uptime_time_series', ...(timeUnit ? { timeUnit } : {}) });
      expect(res.status, res.text).toBe(200);
      expect(res.json.sql).toMatch(/\nGROUP BY date\nORDER BY date ASC$/);
      return /INTERVAL 1 (\w+)\) AS date/.exec(res.json.sql as string)?.[1] ?? 'none';
    };
    expect(await bucket()).toBe('HOUR');
    expect(await bucket('minute')).toBe('MINUTE');
    expect(await bucket('hour')).toBe('HOUR');
    expect(await bucket('day')).toBe('DAY');
  });

  it('accepts an allowed groupBy and orderBy', async () => {
    const res = await runCompile(sim, { ...BASE, groupBy: ['country'], orderBy: 'pageviews asc' });
    expect(res.status).toBe(200);
    expect(res.json.sql).toMatch(/GROUP BY country/);
    expect(res.json.sql).toMatch(/ORDER BY pageviews ASC/);
  });

  it('is deterministic: the same request twice gives the same sql and params', async () => {
    const body = { ...BASE, filters: [{ field: 'country', op: 'in', value: ['US', 'DE'] }], limit: 10 };
    const first = await runCompile(sim, body);
    const second = await runCompile(sim, body);
    expect(second.json.sql).toBe(first.json.sql);
    expect(second.json.params).toEqual(first.json.params);
    const other = await runCompile(freshSimulator({ seed: 7 }), body);
    expect(other.json.sql).toBe(first.json.sql);
  });

  it('compiles every listed query type', async () => {
    const types = (await call(sim, 'GET', '/v1/query/types')).json.types as string[];
    for (const type of types) {
      const res = await runCompile(sim, { ...BASE, type });
      expect(res.status, type).toBe(200);
      expect(res.json.sql, type).toMatch(/^SELECT /);
    }
  });
});

describe('POST /v1/query/compile refusals', () => {
  it('rejects an unknown type with 400 COMPILATION_ERROR and a suggestion', async () => {
    const res = await runCompile(sim, { ...BASE, type: 'top_page' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual(expect.objectContaining({ success: false, code: 'COMPILATION_ERROR', requestId: res.headers['X-Request-ID'] }));
    expect(res.json.error).toMatch(/^Unknown query type: top_page\. Did you mean/);
    expect(res.json.error).toContain('top_pages');
  });

  it("suggests summary_metrics for the misspelt 'summry'", async () => {
    const res = await runCompile(sim, { ...BASE, type: 'summry' });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('COMPILATION_ERROR');
    expect(res.json.error).toMatch(/^Unknown query type: summry\. Did you mean/);
    expect(res.json.error).toContain('summary_metrics');
  });

  it('rejects a groupBy field that is not allowed with 400 COMPILATION_ERROR', async () => {
    const res = await runCompile(sim, { ...BASE, groupBy: ['password_hash'] });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('COMPILATION_ERROR');
    expect(res.json.error).toMatch(/^Grouping by 'password_hash' is not permitted/);
  });

  it('rejects an orderBy field that is not allowed with 400 COMPILATION_ERROR', async () => {
    for (const orderBy of ['name', 'visitors; DROP TABLE events', 'rand()']) {
      const res = await runCompile(sim, { ...BASE, orderBy });
      expect(res.status, orderBy).toBe(400);
      expect(res.json.code, orderBy).toBe('COMPILATION_ERROR');
      expect(res.json.error, orderBy).toMatch(/^Ordering by '.*' is not permitted/);
    }
  });

  it.each([
    [{ limit: 1001 }, 'body.limit'],
    [{ limit: 0 }, 'body.limit'],
    [{ offset: -1 }, 'body.offset'],
    [{ timeUnit: 'fortnight' }, 'body.timeUnit'],
    [{ projectId: undefined }, 'body.projectId'],
  ])('rejects %j with 422 VALIDATION', async (change, field) => {
    const res = await runCompile(sim, { ...BASE, ...change });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('VALIDATION');
    expect((res.json.details as { field: string }[]).map((d) => d.field)).toContain(field);
  });

  it('accepts limit 1000, the largest compile page', async () => {
    const res = await runCompile(sim, { ...BASE, limit: 1000 });
    expect(res.status).toBe(200);
    expect(res.json.params.limit).toBe(1000);
  });

  it('needs read:data: 403 FORBIDDEN for key_acme_track', async () => {
    const res = await runCompile(sim, BASE, WWW, 'key_acme_track');
    expect(res.status).toBe(403);
    expect(res.json).toEqual(expect.objectContaining({ success: false, code: 'FORBIDDEN', error: 'Insufficient permissions', requestId: res.headers['X-Request-ID'] }));
  });

  it('needs a key: 401 AUTH_REQUIRED without one', async () => {
    const res = await runCompile(sim, BASE, WWW, null);
    expect(res.status).toBe(401);
    expect(res.json).toEqual(expect.objectContaining({ success: false, code: 'AUTH_REQUIRED', error: 'Authentication required', requestId: res.headers['X-Request-ID'] }));
    expect(res.headers['WWW-Authenticate']).toBeDefined();
  });

  it('refuses a website of another organization with 403 ACCESS_DENIED', async () => {
    const res = await runCompile(sim, BASE, { website_id: 'web_globex_www' });
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('ACCESS_DENIED');
  });

  it('rejects malformed JSON with 400 PARSE', async () => {
    const res = await call(sim, 'POST', '/v1/query/compile', { query: WWW, key: secretOf(sim, 'key_acme_read'), body: '{"type":' });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('PARSE');
  });
});
