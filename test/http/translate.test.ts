import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTarget } from '../../src/http/translate.js';

/** The query as URLSearchParams reads it, the first value of a name winning, and the names given again. */
function expected(search: string): { query: Record<string, string>; repeated: string[] } {
  const query: Record<string, string> = {};
  const repeated: string[] = [];
  for (const [name, value] of new URLSearchParams(search)) {
    if (!Object.hasOwn(query, name)) query[name] = value;
    else if (!repeated.includes(name)) repeated.push(name);
  }
  return { query, repeated };
}

describe('parseTarget', () => {
  it('reads any query string as URLSearchParams does, the first value of a repeated name winning', () => {
    const piece = fc.constantFrom('a', 'b', 'website_id', '=', '&', '%', '%20', '%zz', '+', 'é', '', 'x=1', '&&');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const search = pieces.join('');
        const parsed = parseTarget(`/v1/query?${search}`);
        expect(parsed.path).toBe('/v1/query');
        const { query, repeated } = expected(search);
        expect(parsed.query).toEqual(query);
        expect(parsed.repeated).toEqual(repeated);
      }),
      { seed: 15, numRuns: 2_000 },
    );
  });

  it('splits a plain query by hand: empty pairs skipped, a name with no "=" has the empty value, "=" inside a value kept', () => {
    expect(parseTarget('/p?a=1&&b&c=x=y&a=2&=z')).toEqual({ path: '/p', query: { a: '1', b: '', c: 'x=y', '': 'z' }, repeated: ['a'] });
    expect(parseTarget('/p?').query).toEqual({});
    expect(parseTarget('?a=1')).toEqual({ path: '/', query: { a: '1' }, repeated: [] });
  });

  it('notes each repeated name once, at most 10 of them', () => {
    const many = Array.from({ length: 30 }, (_, i) => `n${i}=1&n${i}=2&n${i}=3`).join('&');
    const { repeated } = parseTarget(`/p?${many}`);
    expect(repeated).toEqual(Array.from({ length: 10 }, (_, i) => `n${i}`));
  });

  it('keeps parameters named like inherited properties (constructor, toString, __proto__), by either path', () => {
    for (const search of ['constructor=1&toString=2&__proto__=3', 'constructor=%31&toString=2&__proto__=3']) {
      const { query } = parseTarget(`/v1/query?${search}`);
      expect(Object.keys(query)).toEqual(['constructor', 'toString', '__proto__']);
      expect([query.constructor, query.toString, query['__proto__']]).toEqual(['1', '2', '3']);
    }
  });
});
