import { describe, expect, it } from 'vitest';
import type { FieldType } from '../../../src/sim/query/engine/definition.js';
import { QUERY_TYPES } from '../../../src/sim/query/registry.js';
import { call, freshSimulator } from '../../helpers/sim.js';
import { INPUT_OF_TYPE, LAUNCH_LINK, outcomesOf, runQuery, STORE, STORE_MONITOR, type Row } from './support.js';

const sim = freshSimulator({ profile: 'live', limits: 'off' });

interface Listing {
  types: string[];
  configs: Record<string, { allowedFilters: string[]; customizable?: boolean; defaultLimit?: number; meta: { output_fields?: { name: string }[]; description: string } }>;
}

const listing = (await call(sim, 'GET', '/v1/query/types', { query: { include_meta: 'true' } })).json as Listing;
const declared = new Map(QUERY_TYPES.map((t) => [t.name, t]));

function targetOf(type: string): { target: Record<string, string>; keyId: string } {
  const family = declared.get(type)?.target;
  if (family === 'link') return { target: LAUNCH_LINK, keyId: 'key_acme_read' };
  if (family === 'monitor') return { target: STORE_MONITOR, keyId: 'key_acme_monitors' };
  return { target: STORE, keyId: 'key_acme_read' };
}

const cache = new Map<string, Promise<Row[]>>();
function rowsOf(type: string): Promise<Row[]> {
  let rows = cache.get(type);
  if (!rows) {
    const { target, keyId } = targetOf(type);
    const body = { parameters: [type], startDate: '2025-05-26', endDate: '2025-06-01', limit: 500, ...INPUT_OF_TYPE[type] };
    rows = runQuery(sim, body, target, keyId).then((res) => {
      expect(res.status, `${type}: ${res.text.slice(0, 300)}`).toBe(200);
      const [outcome] = outcomesOf(res);
      expect(outcome?.success, `${type}: ${outcome?.error}`).toBe(true);
      return outcome?.data ?? [];
    });
    cache.set(type, rows);
  }
  return rows;
}

function hasType(value: unknown, type: FieldType): boolean {
  const nullable = type.endsWith('?');
  if (value === null) return nullable;
  switch (type.replace('?', '')) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    default:
      return typeof value === 'object' && !Array.isArray(value);
  }
}

describe('the live catalogue under --profile live', () => {
  it('lists all 155 live query types, in the live registry order', () => {
    expect(listing.types).toHaveLength(155);
    expect(new Set(listing.types).size).toBe(155);
  });

  describe.each(QUERY_TYPES.map((t) => t.name))('%s', (type) => {
    it('answers with rows whose keys are exactly the live fields, in order, with their value types', async () => {
      const fields = declared.get(type)?.fields ?? {};
      const rows = await rowsOf(type);
      if (!(type in INPUT_OF_TYPE) || INPUT_OF_TYPE[type]?.filters) expect(rows.length, `${type} answered no rows`).toBeGreaterThan(0);
      for (const row of rows) {
        expect(Object.keys(row)).toEqual(Object.keys(fields));
        for (const [field, kind] of Object.entries(fields)) {
          expect(hasType(row[field], kind), `${type}.${field} = ${JSON.stringify(row[field])} is not ${kind}`).toBe(true);
        }
      }
    });

    it("lists the live meta and the live allowedFilters", () => {
      const config = listing.configs[type];
      expect(config?.meta.description.length).toBeGreaterThan(0);
      expect(config?.allowedFilters.slice(0, 14)).toContain('path');
    });
  });
});
