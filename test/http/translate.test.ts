import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTarget } from '../../src/http/translate.js';

/** The query as URLSearchParams reads it, the first value of a name winning. */
function expected(search: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(search)) if (!(name in query)) query[name] = value;
  return query;
}

describe('parseTarget', () => {
  it('reads any query string as URLSearchParams does, the first value of a repeated name winning', () => {
    const piece = fc.constantFrom('a', 'b', 'website_id', '=', '&', '%', '%20', '%zz', '+', 'é', '', 'x=1', '&&');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const search = pieces.join('');
        const parsed = parseTarget(`/v1/query?${search}`);
        expect(parsed.path).toBe('/v1/query');
        expect(parsed.query).toEqual(expected(search));
      }),
      { seed: 15, numRuns: 2_000 },
    );
  });

  it('splits a plain query by hand: empty pairs skipped, a name with no "=" has the empty value, "=" inside a value kept', () => {
    expect(parseTarget('/p?a=1&&b&c=x=y&a=2&=z').query).toEqual({ a: '1', b: '', c: 'x=y', '': 'z' });
    expect(parseTarget('/p?').query).toEqual({});
    expect(parseTarget('?a=1')).toEqual({ path: '/', query: { a: '1' } });
  });

  it('keeps parameters named like inherited properties (constructor, toString, __proto__), by either path', () => {
    for (const search of ['constructor=1&toString=2&__proto__=3', 'constructor=%31&toString=2&__proto__=3']) {
      const { query } = parseTarget(`/v1/query?${search}`);
      expect(Object.keys(query)).toEqual(['constructor', 'toString', '__proto__']);
      expect([query.constructor, query.toString, query['__proto__']]).toEqual(['1', '2', '3']);
    }
  });
});
