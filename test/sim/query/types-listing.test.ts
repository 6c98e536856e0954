import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';
import { GLOBAL_FILTERS, PRESETS, targetOf } from './support.js';

const sim = freshSimulator();

const NAMED_TYPES = [
  'summary_metrics',
  'today_metrics',
  'events_by_date',
  'active_stats',
  'top_pages',
  'entry_pages',
  'exit_pages',
  'traffic_sources',
  'top_referrers',
  'utm_sources',
  'utm_mediums',
  'utm_campaigns',
  'browser_name',
  'os_name',
  'device_types',
  'screen_resolution',
  'country',
  'region',
  'city',
  'language',
  'timezone',
  'session_metrics',
  'custom_events',
];

/** The service's builder order (observed §1): summary, pages, traffic, devices, geo, …, links, uptime. */
const BUILDER_ORDER = [
  'summary_metrics',
  'today_metrics',
  'events_by_date',
  'active_stats',
  'top_pages',
  'entry_pages',
  'exit_pages',
  'top_referrers',
  'utm_sources',
  'utm_mediums',
  'utm_campaigns',
  'traffic_sources',
  'browser_name',
  'os_name',
  'screen_resolution',
  'device_types',
  'country',
  'region',
  'timezone',
  'language',
  'city',
  'session_metrics',
  'custom_events',
];

async function listTypes(query: Record<string, string> = {}) {
  return call(sim, 'GET', '/v1/query/types', { query });
}

describe('GET /v1/query/types', () => {
  it('is public: answers 200 without any credential', async () => {
    const res = await listTypes();
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(res.headers['Content-Type']).toMatch(/^application\/json/);
  });

  it('answers the same list to a caller with a key as to an anonymous one', async () => {
    const anonymous = await listTypes();
    const withKey = await call(sim, 'GET', '/v1/query/types', { key: secretOf(sim, 'key_acme_track') });
    expect(withKey.status).toBe(200);
    expect(withKey.json.types).toEqual(anonymous.json.types);
    expect(withKey.json.configs).toEqual(anonymous.json.configs);
  });

  it('carries a requestId equal to the X-Request-ID header', async () => {
    const res = await listTypes();
    expect(res.json.requestId).toMatch(/^req_[A-Za-z0-9]{16}$/);
    expect(res.json.requestId).toBe(res.headers['X-Request-ID']);
  });

  it('lists at least 30 distinct query types, including every type the issue names', async () => {
    const { types } = (await listTypes()).json as { types: string[] };
    expect(types.length).toBeGreaterThanOrEqual(30);
    expect(new Set(types).size).toBe(types.length);
    for (const name of NAMED_TYPES) expect(types, name).toContain(name);
  });

  it('lists at least four link_* types and three uptime_* types', async () => {
    const { types } = (await listTypes()).json as { types: string[] };
    expect(types.filter((t) => t.startsWith('link_')).length).toBeGreaterThanOrEqual(4);
    expect(types.filter((t) => t.startsWith('uptime_')).length).toBeGreaterThanOrEqual(3);
    expect(types).toContain('link_total_clicks');
    expect(types).toContain('link_clicks_by_day');
    expect(types).toContain('uptime_overview');
    expect(types).toContain('uptime_time_series');
  });

  it('lists types grouped in registry order: summary, pages, traffic, devices, geo, sessions, events, links, uptime', async () => {
    const { types } = (await listTypes()).json as { types: string[] };
    const groups: string[][] = [
      ['summary_metrics', 'today_metrics', 'events_by_date', 'active_stats'],
      ['top_pages', 'entry_pages', 'exit_pages'],
      ['top_referrers', 'traffic_sources', 'utm_sources', 'utm_mediums', 'utm_campaigns'],
      ['browser_name', 'os_name', 'device_types', 'screen_resolution'],
      ['country', 'region', 'city', 'timezone', 'language'],
      ['session_metrics'],
      ['custom_events'],
      types.filter((t) => t.startsWith('link_')),
      types.filter((t) => t.startsWith('uptime_')),
    ];
    const spans = groups.map((group) => {
      const positions = group.map((name) => types.indexOf(name));
      expect(positions.every((p) => p >= 0), group.join(',')).toBe(true);
      return [Math.min(...positions), Math.max(...positions)] as const;
    });
    for (let i = 1; i < spans.length; i++) {
      expect((spans[i] as readonly [number, number])[0], `group ${i} after group ${i - 1}`).toBeGreaterThan((spans[i - 1] as readonly [number, number])[1]);
    }
    expect(types[0]).toBe('summary_metrics');
  });

  it('orders the types inside each builder as the service does (observed §1.1: traffic_sources after the utm_* types, device_types after screen_resolution, city last in geo)', async () => {
    const { types } = (await listTypes()).json as { types: string[] };
    const positions = BUILDER_ORDER.map((name) => types.indexOf(name));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(BUILDER_ORDER.filter((name) => types.includes(name)).sort((a, b) => types.indexOf(a) - types.indexOf(b))).toEqual(BUILDER_ORDER);
  });

  it('has one config per listed type, keyed by name, in the same order', async () => {
    const { types, configs } = (await listTypes()).json as { types: string[]; configs: Record<string, unknown> };
    expect(Object.keys(configs)).toEqual(types);
  });

  it('gives every config allowedFilters (strings), customizable (boolean), defaultLimit (positive integer) and publicAccess (boolean)', async () => {
    const { configs } = (await listTypes()).json as { configs: Record<string, Record<string, unknown>> };
    for (const [name, config] of Object.entries(configs)) {
      expect(Array.isArray(config.allowedFilters), name).toBe(true);
      for (const f of config.allowedFilters as unknown[]) expect(typeof f, name).toBe('string');
      expect(typeof config.customizable, name).toBe('boolean');
      expect(Number.isInteger(config.defaultLimit), name).toBe(true);
      expect(config.defaultLimit as number, name).toBeGreaterThan(0);
      expect(typeof config.publicAccess, name).toBe('boolean');
    }
  });

  it('starts the allowedFilters of every website type with the global filter fields, in order, without duplicates', async () => {
    const { configs } = (await listTypes()).json as { configs: Record<string, { allowedFilters: string[] }> };
    for (const [name, config] of Object.entries(configs)) {
      if (targetOf(name) !== 'website') continue;
      expect(config.allowedFilters.slice(0, GLOBAL_FILTERS.length), name).toEqual(GLOBAL_FILTERS);
      expect(new Set(config.allowedFilters).size, name).toBe(config.allowedFilters.length);
    }
  });

  it('adds the per-type filter extras after the global ones (summary_metrics and top_pages accept profile_id and anonymous_id)', async () => {
    const { configs } = (await listTypes()).json as { configs: Record<string, { allowedFilters: string[] }> };
    for (const name of ['summary_metrics', 'top_pages']) {
      const filters = configs[name]?.allowedFilters ?? [];
      expect(filters.slice(GLOBAL_FILTERS.length), name).toEqual(expect.arrayContaining(['profile_id', 'anonymous_id']));
    }
    expect(configs.custom_events?.allowedFilters).toContain('event_name');
  });

  it('uses the service defaults for page size: 100 for top_pages and browser_name, 20 for device_types (SPEC 8.5)', async () => {
    const { configs } = (await listTypes()).json as { configs: Record<string, { defaultLimit: number }> };
    expect(configs.top_pages?.defaultLimit).toBe(100);
    expect(configs.browser_name?.defaultLimit).toBe(100);
    expect(configs.traffic_sources?.defaultLimit).toBe(100);
    expect(configs.device_types?.defaultLimit).toBe(20);
  });

  it('marks the public overview types publicAccess and the session, link and uptime types not', async () => {
    const { configs } = (await listTypes()).json as { configs: Record<string, { publicAccess: boolean }> };
    for (const name of ['summary_metrics', 'today_metrics', 'events_by_date', 'active_stats', 'top_pages', 'traffic_sources', 'browser_name', 'os_name', 'device_types', 'country', 'custom_events']) {
      expect(configs[name]?.publicAccess, name).toBe(true);
    }
    expect(configs.session_metrics?.publicAccess).toBe(false);
    for (const [name, config] of Object.entries(configs)) {
      if (targetOf(name) !== 'website') expect(config.publicAccess, name).toBe(false);
    }
  });

  it('omits meta unless include_meta=true', async () => {
    for (const query of [{}, { include_meta: 'false' }, { include_meta: '1' }] as Record<string, string>[]) {
      const { configs } = (await listTypes(query)).json as { configs: Record<string, Record<string, unknown>> };
      for (const [name, config] of Object.entries(configs)) expect('meta' in config, `${name} ${JSON.stringify(query)}`).toBe(false);
    }
  });

  it('includes meta with a description and outputFields (strings) for every type when include_meta=true', async () => {
    const { configs } = (await listTypes({ include_meta: 'true' })).json as {
      configs: Record<string, { meta?: { description?: unknown; outputFields?: unknown } }>;
    };
    for (const [name, config] of Object.entries(configs)) {
      expect(config.meta, name).toBeDefined();
      expect(typeof config.meta?.description, name).toBe('string');
      expect((config.meta?.description as string).length, name).toBeGreaterThan(0);
      const fields = config.meta?.outputFields as unknown[];
      expect(Array.isArray(fields), name).toBe(true);
      expect(fields.length, name).toBeGreaterThan(0);
      for (const f of fields) expect(typeof f, name).toBe('string');
      expect(new Set(fields).size, name).toBe(fields.length);
    }
  });

  it('keeps the rest of each config identical with and without meta', async () => {
    const plain = (await listTypes()).json as { types: string[]; configs: Record<string, Record<string, unknown>> };
    const rich = (await listTypes({ include_meta: 'true' })).json as { types: string[]; configs: Record<string, Record<string, unknown>> };
    expect(rich.types).toEqual(plain.types);
    for (const [name, config] of Object.entries(rich.configs)) {
      const { meta: _meta, ...rest } = config;
      expect(rest, name).toEqual(plain.configs[name]);
    }
  });

  it('describes the SPEC 4.4 row fields in meta: summary_metrics has date, pageviews, visitors, sessions; top_pages has path, pageviews, visitors', async () => {
    const { configs } = (await listTypes({ include_meta: 'true' })).json as { configs: Record<string, { meta: { outputFields: string[]; description: string } }> };
    expect(configs.summary_metrics?.meta.outputFields).toEqual(expect.arrayContaining(['date', 'pageviews', 'visitors', 'sessions']));
    expect(configs.top_pages?.meta.outputFields).toEqual(expect.arrayContaining(['path', 'pageviews', 'visitors']));
    expect(configs.summary_metrics?.meta.description).toBe(
      'Overview of key website metrics including pageviews, visitors, sessions, bounce rate, and session duration.',
    );
  });

  it('lists the 11 date presets in the service order', async () => {
    const res = await listTypes();
    expect(res.json.presets).toEqual([...PRESETS]);
  });
});
