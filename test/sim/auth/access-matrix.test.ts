import { describe, expect, it } from 'vitest';
import { COMPILE_BODY, REQUEST_ID, sessionCookie, sessionTokenOf, SUMMARY_QUERY } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';

const sim = freshSimulator();

interface Probe {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly query?: Record<string, string>;
  readonly body?: unknown;
}

const query = (ids: Record<string, string>, parameters: readonly string[] = ['summary_metrics']): Probe => ({
  method: 'POST',
  path: '/v1/query',
  query: ids,
  body: { ...SUMMARY_QUERY, parameters },
});

/** The requests of the matrix, in column order. */
const PROBES = {
  websites: { method: 'GET', path: '/v1/query/websites' },
  store: query({ website_id: 'web_acme_store' }),
  www: query({ website_id: 'web_acme_www' }),
  globexApp: query({ website_id: 'web_globex_app' }),
  blogPublicTypes: query({ website_id: 'web_acme_blog' }, ['summary_metrics', 'top_pages']),
  blogSessionMetrics: query({ website_id: 'web_acme_blog' }, ['session_metrics']),
  orgAcme: query({ organization_id: 'org_acme' }),
  noId: query({}),
  link: query({ link_id: 'link_acme_launch' }, ['link_total_clicks']),
  schedule: query({ schedule_id: 'mon_acme_store' }, ['uptime_overview']),
  compileSite: { method: 'POST', path: '/v1/query/compile', query: { website_id: 'web_acme_store' }, body: COMPILE_BODY },
  compileNoId: { method: 'POST', path: '/v1/query/compile', body: COMPILE_BODY },
} satisfies Record<string, Probe>;

type ProbeName = keyof typeof PROBES;

/**
 * Outcomes: 200; F = 403 FORBIDDEN (missing scope); W/O/L/M = 403 ACCESS_DENIED to this
 * website/organization/link/monitor; P = 400 MISSING_PROJECT_ID; A = 401 AUTH_REQUIRED.
 */
type Outcome = '200' | 'F' | 'W' | 'O' | 'L' | 'M' | 'P' | 'A';

const COLUMNS = Object.keys(PROBES) as ProbeName[];

//                         websites store  www  globex blogPub blogSess orgAcme noId  link schedule compSite compNoId
const MATRIX: Record<string, Outcome[]> = {
  key_acme_read:         ['200', '200', '200', 'W',  '200',  '200',   '200',  '200', '200', 'F',   '200',  '200'],
  key_acme_store_only:   ['200', '200', 'W',   'W',  '200',  'W',     'O',    'P',   'L',   'F',   '200',  'P'],
  key_acme_track:        ['F',   'F',   'F',   'F',  '200',  'F',     'F',    'F',   'F',   'F',   'F',    'F'],
  key_acme_monitors:     ['F',   'F',   'F',   'F',  '200',  'F',     'F',    'F',   'F',   '200', 'F',    'F'],
  key_acme_all:          ['200', '200', '200', 'W',  '200',  '200',   '200',  '200', '200', '200', '200',  '200'],
  key_globex_read:       ['200', 'W',   'W',   '200','200',  'W',     'O',    '200', 'L',   'F',   'W',    '200'],
  none:                  ['A',   'A',   'A',   'A',  '200',  'A',     'A',    'A',   'A',   'A',   'A',    'A'],
};

const RESOURCE: Partial<Record<Outcome, string>> = { W: 'website', O: 'organization', L: 'link', M: 'monitor' };

function send(probe: Probe, keyId: string): Promise<Answer> {
  return call(sim, probe.method, probe.path, {
    ...(probe.query ? { query: probe.query } : {}),
    ...(probe.body !== undefined ? { body: probe.body } : {}),
    ...(keyId === 'none' ? {} : { key: secretOf(sim, keyId) }),
  });
}

function expectOutcome(answer: Answer, outcome: Outcome): void {
  expect(answer.json.requestId).toMatch(REQUEST_ID);
  switch (outcome) {
    case '200':
      expect(answer.status).toBe(200);
      expect(answer.json.success).toBe(true);
      return;
    case 'F':
      expect(answer.status).toBe(403);
      expect(answer.json).toMatchObject({ success: false, code: 'FORBIDDEN', error: 'Insufficient permissions' });
      return;
    case 'P':
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({
        success: false,
        code: 'MISSING_PROJECT_ID',
        error: 'Missing resource identifier (website_id, schedule_id, link_id, or organization_id)',
      });
      return;
    case 'A':
      expect(answer.status).toBe(401);
      expect(answer.json).toMatchObject({ success: false, code: 'AUTH_REQUIRED', error: 'Authentication required' });
      expect(answer.headers['WWW-Authenticate']).toEqual(expect.any(String));
      return;
    default:
      expect(answer.status).toBe(403);
      expect(answer.json).toMatchObject({ success: false, code: 'ACCESS_DENIED', error: `Access denied to this ${RESOURCE[outcome]}` });
  }
}

describe('the scope and access matrix', () => {
  const cases = Object.entries(MATRIX).flatMap(([keyId, row]) =>
    COLUMNS.map((probe, i) => ({ keyId, probe, outcome: row[i] as Outcome })),
  );

  it('has one expected outcome for every request of every key', () => {
    for (const row of Object.values(MATRIX)) expect(row).toHaveLength(COLUMNS.length);
  });

  it.each(cases)('answers $keyId on $probe with $outcome', async ({ keyId, probe, outcome }) => {
    const answer = await send(PROBES[probe], keyId);
    expectOutcome(answer, outcome);
  });
});

describe('access to resources by id', () => {
  it.each([
    ['website_id', 'web_does_not_exist', 'website', ['summary_metrics']],
    ['link_id', 'link_does_not_exist', 'link', ['link_total_clicks']],
    ['schedule_id', 'mon_does_not_exist', 'monitor', ['uptime_overview']],
    ['organization_id', 'org_does_not_exist', 'organization', ['summary_metrics']],
  ] as const)('answers an unknown %s with 403 ACCESS_DENIED, not 404', async (param, id, resource, parameters) => {
    const answer = await send(query({ [param]: id }, parameters), 'key_acme_all');
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code: 'ACCESS_DENIED', error: `Access denied to this ${resource}` });
  });

  it('answers an anonymous query on an unknown website with 401, like a private one', async () => {
    const answer = await send(query({ website_id: 'web_does_not_exist' }), 'none');
    expect(answer.status).toBe(401);
    expect(answer.json.code).toBe('AUTH_REQUIRED');
  });

  it('answers compile on an unknown website with 403 ACCESS_DENIED', async () => {
    const answer = await call(sim, 'POST', '/v1/query/compile', {
      key: secretOf(sim, 'key_acme_read'),
      query: { website_id: 'web_does_not_exist' },
      body: COMPILE_BODY,
    });
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code: 'ACCESS_DENIED', error: 'Access denied to this website' });
  });

  it('denies a monitor of another organization with "Access denied to this monitor"', async () => {
    const answer = await send(query({ schedule_id: 'mon_globex_app' }, ['uptime_overview']), 'key_acme_all');
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code: 'ACCESS_DENIED', error: 'Access denied to this monitor' });
  });

  it('denies a monitor of another organization to a signed-in user with "Access denied to this monitor"', async () => {
    const answer = await call(sim, 'POST', '/v1/query', {
      query: { schedule_id: 'mon_acme_store' },
      headers: sessionCookie(sessionTokenOf(sim, 'user_bob')),
      body: { ...SUMMARY_QUERY, parameters: ['uptime_overview'] },
    });
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code: 'ACCESS_DENIED', error: 'Access denied to this monitor' });
  });

  it('denies a link of another organization to a global key', async () => {
    const answer = await send(query({ link_id: 'link_globex_careers' }, ['link_total_clicks']), 'key_acme_read');
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code: 'ACCESS_DENIED', error: 'Access denied to this link' });
  });

  it('requires global access for link analytics: a website-restricted key gets 403 on link_id', async () => {
    const answer = await send(query({ link_id: 'link_acme_launch' }, ['link_total_clicks']), 'key_acme_store_only');
    expect(answer.status).toBe(403);
    expect(answer.json.code).toBe('ACCESS_DENIED');
  });

  it('requires read:monitors for uptime types: a read:data key gets 403 FORBIDDEN naming the scope', async () => {
    const answer = await send(query({ schedule_id: 'mon_acme_store' }, ['uptime_overview']), 'key_acme_read');
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code: 'FORBIDDEN', error: 'Insufficient permissions' });
    expect(answer.json.hint).toContain('read:monitors');
  });

  it('names the missing read:data scope in the hint of a FORBIDDEN websites list', async () => {
    const answer = await send(PROBES.websites, 'key_acme_track');
    expect(answer.status).toBe(403);
    expect(answer.json.hint).toContain('read:data');
  });

  it('refuses an anonymous query that mixes a public and a non-public type on a public website', async () => {
    const answer = await send(query({ website_id: 'web_acme_blog' }, ['summary_metrics', 'session_metrics']), 'none');
    expect(answer.status).toBe(401);
    expect(answer.json.code).toBe('AUTH_REQUIRED');
  });

  it('answers anonymous public types on every public website', async () => {
    const fixtures = sim.fixtures() as unknown as { websites: { id: string; isPublic: boolean }[] };
    const publicSites = fixtures.websites.filter((w) => w.isPublic);
    expect(publicSites.length).toBeGreaterThan(0);
    for (const site of publicSites) {
      const answer = await send(query({ website_id: site.id }, ['summary_metrics', 'top_pages']), 'none');
      expect(answer.status, site.id).toBe(200);
      expect(answer.json.data.map((d: { parameter: string }) => d.parameter)).toEqual(['summary_metrics', 'top_pages']);
    }
  });
});

interface ListedWebsite {
  id: string;
  name: string;
  domain: string;
  isPublic: boolean;
  createdAt: string;
  organizationId: string;
  organizationName: string;
}

interface FixtureWebsite {
  id: string;
  organizationId: string;
  name: string;
  domain: string;
  isPublic: boolean;
  createdAt: string;
}

describe('the websites list of each key', () => {
  const fixtures = sim.fixtures() as unknown as { websites: FixtureWebsite[]; organizations: { id: string; name: string }[] };
  const orgName = new Map(fixtures.organizations.map((o) => [o.id, o.name]));
  const expectedFor = (predicate: (w: FixtureWebsite) => boolean): ListedWebsite[] =>
    fixtures.websites
      .filter(predicate)
      .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))
      .map((w) => ({
        id: w.id,
        name: w.name,
        domain: w.domain,
        isPublic: w.isPublic,
        createdAt: w.createdAt,
        organizationId: w.organizationId,
        organizationName: orgName.get(w.organizationId) as string,
      }));

  async function list(keyId: string): Promise<Answer> {
    const answer = await send(PROBES.websites, keyId);
    expect(answer.status).toBe(200);
    expect(answer.json.success).toBe(true);
    expect(answer.json.total).toBe(answer.json.websites.length);
    return answer;
  }

  it.each(['key_acme_read', 'key_acme_all'])('lists every Acme website in createdAt order for the global key %s', async (keyId) => {
    const answer = await list(keyId);
    const expected = expectedFor((w) => w.organizationId === 'org_acme');
    expect(expected.length).toBeGreaterThanOrEqual(4);
    expect(answer.json.websites).toEqual(expected);
    expect(answer.json.websites.every((w: ListedWebsite) => w.organizationName === 'Acme Inc')).toBe(true);
  });

  it('lists exactly its one website for the restricted key', async () => {
    const answer = await list('key_acme_store_only');
    expect(answer.json.websites).toEqual(expectedFor((w) => w.id === 'web_acme_store'));
    expect(answer.json.total).toBe(1);
  });

  it('lists only Globex websites for the Globex key', async () => {
    const answer = await list('key_globex_read');
    expect(answer.json.websites).toEqual(expectedFor((w) => w.organizationId === 'org_globex'));
    expect(answer.json.websites.every((w: ListedWebsite) => w.organizationName === 'Globex Corporation')).toBe(true);
  });

  it('serializes createdAt as ISO 8601 UTC with milliseconds and sorts ascending', async () => {
    const answer = await list('key_acme_read');
    const dates = (answer.json.websites as ListedWebsite[]).map((w) => w.createdAt);
    for (const date of dates) {
      expect(date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(new Date(date).toISOString()).toBe(date);
    }
    expect([...dates].sort()).toEqual(dates);
  });

  it('lists exactly the website fields of SPEC 2.1 plus organizationId and organizationName', async () => {
    const answer = await list('key_globex_read');
    for (const website of answer.json.websites as ListedWebsite[]) {
      expect(Object.keys(website).sort()).toEqual(
        ['createdAt', 'domain', 'id', 'isPublic', 'name', 'organizationId', 'organizationName'],
      );
    }
  });
});
