import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkCatalogue, readCatalogue } from '../../../src/sim/query/engine/catalogue.js';
import { defineQueryType } from '../../../src/sim/query/engine/definition.js';
import { QUERY_TYPES } from '../../../src/sim/query/registry.js';

const FAMILIES = new URL('../../../src/sim/query/families/', import.meta.url);

/** Every catalogue file: [family folder, file name]. */
function catalogueFiles(): [string, string][] {
  return readdirSync(FAMILIES).flatMap((family) =>
    readdirSync(new URL(`${family}/`, FAMILIES))
      .filter((file) => file.endsWith('.json'))
      .map((file): [string, string] => [family, file]),
  );
}

describe('query type catalogue files', () => {
  it('are named <family>-catalogue.json in their family folder, and every entry names a type of that family', () => {
    const files = catalogueFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const [family, file] of files) {
      expect(file).toBe(`${family}-catalogue.json`);
      const names = Object.keys(JSON.parse(readFileSync(new URL(`${family}/${file}`, FAMILIES), 'utf8')) as object);
      const types = new Set(QUERY_TYPES.filter((t) => t.family === family).map((t) => t.name));
      for (const name of names) expect(types.has(name), `${file}: ${name}`).toBe(true);
    }
  });

  it('each pass the one schema of catalogue files', () => {
    for (const [family, file] of catalogueFiles()) {
      expect(() => checkCatalogue(family, JSON.parse(readFileSync(new URL(`${family}/${file}`, FAMILIES), 'utf8')))).not.toThrow();
    }
  });

  it('gives fields and meta as the field makers would, in the file order', () => {
    const catalogue = readCatalogue('summary', {
      t: {
        fields: [
          { name: 'at', type: 'string', meta_type: 'datetime', label: 'At' },
          { name: 'hidden', type: 'integer', listed: false },
          { name: 'share', type: 'number?', unit: '%', description: 'Share' },
        ],
        meta: { description: 'd', category: 'c', tags: ['x'], default_visualization: 'table' },
      },
    });
    const type = defineQueryType({ name: 't', family: { name: 'summary', catalogue }, run: () => [] });
    expect(type.fields).toEqual({ at: 'string', hidden: 'integer', share: 'number?' });
    expect(JSON.stringify(type.meta)).toBe(
      '{"description":"d","category":"c","tags":["x"],"output_fields":[{"name":"at","type":"datetime","label":"At"},{"name":"share","type":"number","unit":"%","description":"Share"}],"default_visualization":"table"}',
    );
  });

  it('refuses a malformed file, naming the file and where in it', () => {
    const bad = { t: { fields: [{ name: 'a', type: 'int', label: 'A' }], meta: { description: 'd', category: 'c', tags: [], titel: 'x' } } };
    expect(() => checkCatalogue('devices', bad)).toThrow(/src\/sim\/query\/families\/devices\/devices-catalogue\.json is not a query type catalogue:\n {2}at t\.fields\[0\]\.type: .*\n {2}at t\.meta: .*titel/);
    expect(() => checkCatalogue('devices', { t: { fields: [{ name: 'a', type: 'string', listed: false, label: 'A' }] } })).toThrow(/at t\.fields\[0\]: a field with "listed": false/);
  });

  it('refuses words said both in a declaration and in the catalogue, or in neither', () => {
    const catalogue = readCatalogue('summary', { t: { meta: { description: 'd', category: 'c', tags: [] } } });
    const family = { name: 'summary', catalogue };
    expect(() => defineQueryType({ name: 't', family, fields: {}, meta: { description: 'd', category: 'c', tags: [] }, run: () => [] })).toThrow(/t: its meta is declared both in code and in src\/sim\/query\/families\/summary\/summary-catalogue\.json/);
    expect(() => defineQueryType({ name: 't', family, run: () => [] })).toThrow(/t: no fields/);
    expect(() => defineQueryType({ name: 'u', family, fields: {}, run: () => [] })).toThrow(/u: no meta/);
  });
});
