import { describe, expect, it } from 'vitest';
import { call, freshSimulator } from '../../helpers/sim.js';
import {
  column,
  LAUNCH_LINK,
  rowsOf,
  runQuery,
  STORE,
  STORE_MONITOR,
  sumOf,
  WWW,
  type Row,
  type Target,
} from './support.js';

const sim = freshSimulator();
const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01', limit: 10000 };

type Filter = { field: string; op: string; value: unknown };

/** Rows of one type over WEEK, with optional filters. */
async function rows(type: string, filters: Filter[] = [], target: Target = WWW, keyId = 'key_acme_read'): Promise<Row[]> {
  const res = await runQuery(sim, { parameters: [type], ...WEEK, filters }, target, keyId);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return rowsOf(res, type);
}

/** A row without the fields that depend on the set of rows (percentages). */
function counts(row: Row): Row {
  const { percentage: _percentage, ...rest } = row;
  return rest;
}

/** Filtered rows must be exactly the unfiltered rows (same counts, same order) whose `key` passes. */
async function expectSubset(type: string, key: string, filter: Filter, keep: (value: string) => boolean, target: Target = WWW, keyId?: string) {
  const all = await rows(type, [], target, keyId);
  const filtered = await rows(type, [filter], target, keyId);
  const expected = all.filter((r) => keep(r[key] as string)).map(counts);
  expect(expected.length, 'the filter should keep some rows').toBeGreaterThan(0);
  expect(expected.length, 'the filter should drop some rows').toBeLessThan(all.length);
  expect(filtered.map(counts)).toEqual(expected);
}

describe('filter operators narrow results', () => {
  it('eq keeps only the matching browser in browser_name rows', async () => {
    await expectSubset('browser_name', 'name', { field: 'browser_name', op: 'eq', value: 'Safari' }, (v) => v === 'Safari');
  });

  it('ne drops the matching browser from browser_name rows', async () => {
    await expectSubset('browser_name', 'name', { field: 'browser_name', op: 'ne', value: 'Chrome' }, (v) => v !== 'Chrome');
  });

  it('contains keeps the paths that contain the text in top_pages rows', async () => {
    await expectSubset('top_pages', 'path', { field: 'path', op: 'contains', value: 'use-cases' }, (v) => v.includes('use-cases'));
  });

  it('not_contains drops the paths that contain the text from top_pages rows', async () => {
    await expectSubset('top_pages', 'path', { field: 'path', op: 'not_contains', value: 'compare' }, (v) => !v.includes('compare'));
  });

  it('starts_with keeps the paths with that prefix in top_pages rows', async () => {
    await expectSubset('top_pages', 'path', { field: 'path', op: 'starts_with', value: '/compare/' }, (v) => v.startsWith('/compare/'));
  });

  it('starts_with matches a prefix only, not text in the middle of a path', async () => {
    const filtered = await rows('top_pages', [{ field: 'path', op: 'starts_with', value: 'pricing' }]);
    expect(filtered).toEqual([]);
  });

  it('in keeps the listed operating systems in os_name rows', async () => {
    await expectSubset('os_name', 'name', { field: 'os_name', op: 'in', value: ['iOS', 'Android'] }, (v) => v === 'iOS' || v === 'Android');
  });

  it('not_in drops the listed operating systems from os_name rows', async () => {
    await expectSubset('os_name', 'name', { field: 'os_name', op: 'not_in', value: ['Windows', 'macOS'] }, (v) => v !== 'Windows' && v !== 'macOS');
  });

  it('in with a scalar value acts as a one-element list', async () => {
    const scalar = await rows('browser_name', [{ field: 'browser_name', op: 'in', value: 'Chrome' }]);
    const list = await rows('browser_name', [{ field: 'browser_name', op: 'in', value: ['Chrome'] }]);
    expect(column(scalar, 'name')).toEqual(['Chrome']);
    expect(scalar).toEqual(list);
  });

  it('in accepts numbers and compares them as strings, so a number matches no browser while the strings still match', async () => {
    const res = await runQuery(sim, { parameters: ['browser_name'], ...WEEK, filters: [{ field: 'browser_name', op: 'in', value: [1, 'Safari', 2.5] }] });
    expect(res.status).toBe(200);
    expect(column(rowsOf(res, 'browser_name'), 'name')).toEqual(['Safari']);
  });

  it('eq with a number value is accepted and matches nothing when no value equals its string form', async () => {
    const res = await runQuery(sim, { parameters: ['top_pages'], ...WEEK, filters: [{ field: 'path', op: 'eq', value: 404 }] });
    expect(res.status).toBe(200);
    expect(rowsOf(res, 'top_pages')).toEqual([]);
  });

  it('treats device_type values case-insensitively', async () => {
    const all = await rows('device_types');
    const mobile = all.filter((r) => r.name === 'Mobile').map(counts);
    expect(mobile.length).toBe(1);
    for (const value of ['mobile', 'Mobile', 'MOBILE']) {
      const filtered = await rows('device_types', [{ field: 'device_type', op: 'eq', value }]);
      expect(filtered.map(counts), value).toEqual(mobile);
    }
    const notMobile = await rows('device_types', [{ field: 'device_type', op: 'ne', value: 'MoBiLe' }]);
    expect(column(notMobile, 'name')).not.toContain('Mobile');
    expect(notMobile.length).toBe(all.length - 1);
  });

  it('ANDs several filters', async () => {
    const both = await rows('browser_name', [
      { field: 'browser_name', op: 'in', value: ['Chrome', 'Safari'] },
      { field: 'browser_name', op: 'ne', value: 'Safari' },
    ]);
    expect(column(both, 'name')).toEqual(['Chrome']);
  });

  it('narrows other breakdowns consistently: country rows under a browser filter add up to that browser’s pageviews', async () => {
    const res = await runQuery(sim, {
      parameters: ['country', 'summary_metrics', 'top_pages'],
      ...WEEK,
      filters: [{ field: 'browser_name', op: 'eq', value: 'Firefox' }],
    });
    const firefox = (await rows('browser_name')).find((r) => r.name === 'Firefox');
    expect(firefox).toBeDefined();
    expect(sumOf(rowsOf(res, 'country'), 'pageviews')).toBe(firefox?.pageviews);
    expect(sumOf(rowsOf(res, 'summary_metrics'), 'pageviews')).toBe(firefox?.pageviews);
    expect(sumOf(rowsOf(res, 'top_pages'), 'pageviews')).toBe(firefox?.pageviews);
  });

  it('applies a path filter to session-level types through the matching pageviews', async () => {
    const pricing = (await rows('top_pages')).find((r) => r.path === '/pricing');
    const res = await runQuery(sim, { parameters: ['browser_name', 'summary_metrics'], ...WEEK, filters: [{ field: 'path', op: 'eq', value: '/pricing' }] });
    expect(sumOf(rowsOf(res, 'browser_name'), 'pageviews')).toBe(pricing?.pageviews);
    expect(sumOf(rowsOf(res, 'summary_metrics'), 'pageviews')).toBe(pricing?.pageviews);
  });

  it('matches a referrer by its host name', async () => {
    const filtered = await rows('top_referrers', [{ field: 'referrer', op: 'eq', value: 'google.com' }]);
    expect(column(filtered, 'domain')).toEqual(['google.com']);
    const all = await rows('top_referrers');
    expect(filtered.map(counts)).toEqual(all.filter((r) => r.domain === 'google.com').map(counts));
  });

  it('filters link analytics by the link filter fields', async () => {
    await expectSubset('link_top_browsers', 'name', { field: 'browser_name', op: 'eq', value: 'Safari' }, (v) => v === 'Safari', LAUNCH_LINK);
  });

  it('answers uptime analytics unfiltered, as the uptime SQL of the service reads no filter', async () => {
    const plain = await rows('uptime_by_region', [], STORE_MONITOR, 'key_acme_monitors');
    expect(await rows('uptime_by_region', [{ field: 'country', op: 'eq', value: 'US' }], STORE_MONITOR, 'key_acme_monitors')).toEqual(plain);
  });
});

describe('an empty device type', () => {
  it('names a page view without a device type Desktop in device_types, and a device_type filter on desktop matches it', async () => {
    const own = freshSimulator();
    const DAY = { startDate: '2025-06-02', endDate: '2025-06-02' };
    const ask = async (parameter: string, filters: Filter[] = []): Promise<Row[]> => rowsOf(await runQuery(own, { parameters: [parameter], ...DAY, filters }, WWW), parameter);
    const desktop = [{ field: 'device_type', op: 'eq', value: 'desktop' }];
    const devicesBefore = await ask('device_types');
    const [desktopBefore] = await ask('summary_metrics', desktop);
    // No User-Agent: the page view is stored with an empty device type.
    const posted = await call(own, 'POST', '/batch', {
      query: { client_id: 'web_acme_www' },
      body: [{ eventId: 'ev_no_ua', name: 'screen_view', path: 'https://acme.io/no-agent', anonymousId: 'anon_no_ua', sessionId: 'sess_no_ua', timestamp: Date.UTC(2025, 5, 2, 10, 0) }],
    });
    expect(posted.status, posted.text).toBe(200);
    const devicesAfter = await ask('device_types');
    expect(column(devicesAfter, 'name')).toEqual(column(devicesBefore, 'name'));
    const pageviews = (list: Row[], name: string): number => list.find((r) => r.name === name)?.pageviews as number;
    expect(pageviews(devicesAfter, 'Desktop')).toBe(pageviews(devicesBefore, 'Desktop') + 1);
    expect(pageviews(devicesAfter, 'Mobile')).toBe(pageviews(devicesBefore, 'Mobile'));
    const [desktopAfter] = await ask('summary_metrics', desktop);
    expect(desktopAfter?.pageviews).toBe((desktopBefore?.pageviews as number) + 1);
    expect(await ask('top_pages', [{ field: 'device_type', op: 'eq', value: 'mobile' }, { field: 'path', op: 'eq', value: '/no-agent' }])).toEqual([]);
  });
});

describe('what the filter schema leaves out', () => {
  it('ignores target and having on a filter, as the HTTP schema does not expose them, and says so in a Warning', async () => {
    const plain = await runQuery(sim, { parameters: ['top_pages'], ...WEEK, filters: [{ field: 'country', op: 'eq', value: 'US' }] });
    const extra = await runQuery(sim, { parameters: ['top_pages'], ...WEEK, filters: [{ field: 'country', op: 'eq', value: 'US', target: 'sessions', having: true }] });
    expect(extra.status).toBe(200);
    expect(rowsOf(extra, 'top_pages')).toEqual(rowsOf(plain, 'top_pages'));
    expect(extra.json.meta.filters_applied).toBe(1);
    expect(extra.headers.Warning).toMatch(/body\.filters\[0\]\.target: target is not a field of this request and was ignored/);
    expect(extra.headers.Warning).toMatch(/body\.filters\[0\]\.having: having is not a field of this request and was ignored/);
  });
});

describe('operators a type restricts', () => {
  it('fails error_customer_impact for an operator other than eq on path (the parameter only, with the cause in a Warning), and answers it for eq', async () => {
    const impact = (op: string) => runQuery(sim, { parameters: ['error_customer_impact', 'top_pages'], ...WEEK, filters: [{ field: 'path', op, value: '/checkout' }] }, STORE);
    for (const op of ['contains', 'ne', 'starts_with', 'in']) {
      const res = await impact(op);
      expect(res.status).toBe(200);
      expect(res.json.data.map((p: { parameter: string; success: boolean }) => [p.parameter, p.success]), op).toEqual([
        ['top_pages', true],
        ['error_customer_impact', false],
      ]);
      expect(res.json.data[1]).toEqual({ parameter: 'error_customer_impact', success: false, error: 'Query execution failed', data: [] });
      expect(res.headers.Warning, op).toMatch(/error_customer_impact/);
    }
    const eq = await impact('eq');
    expect(eq.json.data.every((p: { success: boolean }) => p.success)).toBe(true);
  });
});

describe('filters a type does not allow', () => {
  it('ignores a filter on a field the type does not allow, but counts it in filters_applied', async () => {
    const plain = await runQuery(sim, { parameters: ['browser_name'], ...WEEK });
    const filtered = await runQuery(sim, { parameters: ['browser_name'], ...WEEK, filters: [{ field: 'event_name', op: 'eq', value: 'signup' }] });
    expect(filtered.status).toBe(200);
    expect(rowsOf(filtered, 'browser_name')).toEqual(rowsOf(plain, 'browser_name'));
    expect(filtered.json.meta.filters_applied).toBe(1);
  });

  it('ignores a field no type knows without an error', async () => {
    const plain = await runQuery(sim, { parameters: ['top_pages'], ...WEEK });
    const filtered = await runQuery(sim, { parameters: ['top_pages'], ...WEEK, filters: [{ field: 'favourite_colour', op: 'in', value: ['blue'] }] });
    expect(filtered.status).toBe(200);
    expect(rowsOf(filtered, 'top_pages')).toEqual(rowsOf(plain, 'top_pages'));
    expect(filtered.json.meta.filters_applied).toBe(1);
  });

  it('lets one query share filters across types: each type applies only the fields it allows', async () => {
    const filters = [
      { field: 'event_name', op: 'eq', value: 'cta_click' },
      { field: 'country', op: 'eq', value: 'US' },
    ];
    const res = await runQuery(sim, { parameters: ['custom_events', 'browser_name'], ...WEEK, filters });
    expect(res.json.meta.filters_applied).toBe(2);
    expect(column(rowsOf(res, 'custom_events'), 'name')).toEqual(['cta_click']);
    const usOnly = await runQuery(sim, { parameters: ['browser_name'], ...WEEK, filters: [filters[1]] });
    expect(rowsOf(res, 'browser_name')).toEqual(rowsOf(usOnly, 'browser_name'));
  });

  it('ignores a website filter field on a link type', async () => {
    const plain = await rows('link_top_browsers', [], LAUNCH_LINK);
    const filtered = await rows('link_top_browsers', [{ field: 'path', op: 'eq', value: '/nowhere' }], LAUNCH_LINK);
    expect(filtered).toEqual(plain);
  });
});

describe('malformed filters', () => {
  it.each([
    ['an unknown op', { field: 'country', op: 'gt', value: 'US' }, 'body.filters[0].op'],
    ['an object value', { field: 'country', op: 'eq', value: { code: 'US' } }, 'body.filters[0].value'],
    ['a boolean value', { field: 'country', op: 'eq', value: true }, 'body.filters[0].value'],
    ['an array of objects', { field: 'country', op: 'in', value: [{ code: 'US' }] }, 'body.filters[0].value'],
  ])('rejects %s with 422 VALIDATION and details naming the field', async (_label, filter, field) => {
    const res = await runQuery(sim, { parameters: ['country'], ...WEEK, filters: [filter] });
    expect(res.status).toBe(422);
    expect(res.json).toEqual(
      expect.objectContaining({
        success: false,
        code: 'VALIDATION',
        error: 'Some of the details are invalid. Check them and try again.',
        requestId: res.headers['X-Request-ID'],
      }),
    );
    expect((res.json.details as { field: string }[]).map((d) => d.field)).toContain(field);
  });

  it('names the position of the bad filter among several', async () => {
    const res = await runQuery(sim, {
      parameters: ['country'],
      ...WEEK,
      filters: [
        { field: 'country', op: 'eq', value: 'US' },
        { field: 'browser_name', op: 'between', value: 'A' },
      ],
    });
    expect(res.status).toBe(422);
    expect((res.json.details as { field: string }[]).map((d) => d.field)).toEqual(['body.filters[1].op']);
  });
});
