import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { QUERY_TYPES } from '../../../src/sim/query/registry.js';
import { defineQueryType } from '../../../src/sim/query/engine/definition.js';
import { int, num, OUTPUT_FIELDS, text } from '../../../src/sim/query/engine/fields.js';

const FAMILIES = new URL('../../../src/sim/query/families/', import.meta.url);

describe('query type declarations', () => {
  it('keeps each family in a folder named as the family, its declarations in <family>.ts', () => {
    const families = [...new Set(QUERY_TYPES.map((t) => t.family))];
    expect(families).toHaveLength(20);
    expect(readdirSync(FAMILIES).sort()).toEqual([...families].sort());
    for (const family of families) expect(existsSync(new URL(`${family}/${family}.ts`, FAMILIES)), family).toBe(true);
  });

  it('lists in output_fields the declared fields that carry an entry, in row order', () => {
    for (const type of QUERY_TYPES) {
      const listed = (type.meta.output_fields ?? []).map((f) => f.name);
      const fields = Object.keys(type.fields);
      expect(listed, type.name).toEqual(fields.filter((f) => listed.includes(f)));
    }
  });

  it('derives the meta from the fields: after tags, or where OUTPUT_FIELDS stands', () => {
    const base = { name: 't', family: 'summary', run: () => [] };
    const fields = { name: text('Name', { description: 'The name' }), hidden: 'string' as const, n: int({ unit: 'ms' }), share: num('Share', { type: 'percent' }) };
    const after = defineQueryType({ ...base, fields, meta: { description: 'd', category: 'c', tags: [], default_visualization: 'table' } });
    expect(JSON.stringify(after.meta)).toBe(
      '{"description":"d","category":"c","tags":[],"output_fields":[{"name":"name","type":"string","label":"Name","description":"The name"},{"name":"n","type":"number","unit":"ms"},{"name":"share","type":"percent","label":"Share"}],"default_visualization":"table"}',
    );
    expect(after.fields).toEqual({ name: 'string', hidden: 'string', n: 'integer', share: 'number' });
    const placed = defineQueryType({ ...base, fields, meta: { output_fields: OUTPUT_FIELDS, description: 'd', category: 'c', tags: [] } });
    expect(Object.keys(placed.meta)).toEqual(['output_fields', 'description', 'category', 'tags']);
    const none = defineQueryType({ ...base, fields: { name: 'string' }, meta: { description: 'd', category: 'c', tags: [] } });
    expect(none.meta).not.toHaveProperty('output_fields');
  });
});
