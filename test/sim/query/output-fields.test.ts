import { describe, expect, it } from 'vitest';
import { QUERY_TYPES } from '../../../src/sim/query/registry.js';
import { call, freshSimulator } from '../../helpers/sim.js';
import { INPUT_OF_TYPE, LAUNCH_LINK, outcomesOf, runQuery, STORE, STORE_MONITOR, targetOf, type Row } from './support.js';

const sim = freshSimulator({ limits: 'off' });

interface Listing {
  types: string[];
  configs: Record<string, { meta: { outputFields: string[] } }>;
}

const listing = (await call(sim, 'GET', '/v1/query/types', { query: { include_meta: 'true' } })).json as Listing;

/** How each type's target is reached, with a key that may read it. */
function runnerFor(type: string): { target: Record<string, string>; keyId: string } {
  switch (targetOf(type)) {
    case 'link':
      return { target: LAUNCH_LINK, keyId: 'key_acme_read' };
    case 'monitor':
      return { target: STORE_MONITOR, keyId: 'key_acme_monitors' };
    default:
      return { target: STORE, keyId: 'key_acme_read' };
  }
}

const cache = new Map<string, Promise<Row[]>>();

/** The rows of one type over a week, fetched once per file (one request per type). */
function rowsOfType(type: string): Promise<Row[]> {
  let rows = cache.get(type);
  if (!rows) {
    const { target, keyId } = runnerFor(type);
    rows = runQuery(sim, { parameters: [type], startDate: '2025-05-26', endDate: '2025-06-01', ...INPUT_OF_TYPE[type] }, target, keyId).then((res) => {
      const [outcome] = outcomesOf(res);
      expect(outcome?.parameter).toBe(type);
      expect(outcome?.success, `${type}: ${outcome?.error}`).toBe(true);
      return outcome?.data ?? [];
    });
    cache.set(type, rows);
  }
  return rows;
}

describe('rows of every query type', () => {
  it('covers every listed type', () => {
    expect(listing.types.length).toBeGreaterThanOrEqual(30);
  });

  describe.each(listing.types)('%s', (type) => {
    it('runs against a resource of its target and returns at least one row', async () => {
      const rows = await rowsOfType(type);
      expect(rows.length).toBeGreaterThan(0);
    });

    it('gives every row exactly the keys of meta.outputFields, in that order', async () => {
      const fields = listing.configs[type]?.meta.outputFields;
      const rows = await rowsOfType(type);
      for (const row of rows) expect(Object.keys(row)).toEqual(fields);
    });

    it('sends counts and rates as JSON numbers, never as strings', async () => {
      const rows = await rowsOfType(type);
      for (const row of rows) {
        const declared = QUERY_TYPES.find((t) => t.name === type)?.fields ?? {};
        for (const [field, value] of Object.entries(row)) {
          if (/^(integer|number)/.test(declared[field] ?? '')) {
            expect(value === null || typeof value === 'number', `${field}=${JSON.stringify(value)}`).toBe(true);
            if (typeof value === 'number') expect(Number.isFinite(value), field).toBe(true);
          }
          // Version strings (browser_version '18.4') and custom event property values ('29.99') are text in the live rows too.
          if (typeof value === 'string' && !field.endsWith('_version') && field !== 'property_value') expect(value, `${field} looks like a number sent as a string`).not.toMatch(/^-?\d+(\.\d+)?$/);
          // Property samples (sample_values, top_values) are [value, count] lists in the live rows.
          expect(['string', 'number', 'boolean'].includes(typeof value) || value === null || Array.isArray(value), field).toBe(true);
        }
      }
    });
  });
});
