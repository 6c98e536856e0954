import fc from 'fast-check';
import type { z } from 'zod';
import type { SimRequest } from '../../src/sim/messages.js';
import { CONTROL_ROUTES } from '../../src/sim/control/control-table.js';
import type { Route } from '../../src/sim/routing/route.js';
import { PUBLIC_ROUTES } from '../../src/sim/routing/public-routes.js';

/** What a generator may put in a request to act as somebody: fixture secrets and ids. */
export interface Credentials {
  /** API key secrets of the fixtures (valid, expired, revoked, disabled …). */
  readonly apiKeys: readonly string[];
  /** Session tokens of the fixture users. */
  readonly sessionTokens: readonly string[];
  /** Ids of fixture resources (websites, organizations, links, monitors …, webhook hashes), for path parameters. */
  readonly ids: readonly string[];
  /** The payment webhooks' signing secrets: never sent, only looked for in answers. */
  readonly webhookSecrets?: readonly string[];
}

/** Every route of both tables, as declared. */
export const ALL_ROUTES: readonly Route[] = [...PUBLIC_ROUTES, ...CONTROL_ROUTES];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'get', 'PROPFIND'] as const;
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf'] as const;

/** Strings chosen to break parsers, matchers and formatters. */
const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '', ' ', '0', '-1', '1e309', 'NaN', 'null', 'true', '[]', '{}', '%', '%00', '%zz', '\u0000', '\ud800', '\udfff\ud800',
    '\uFFFD', '../../etc/passwd', '..%2F..%2F', '<script>alert(1)</script>', "' OR 1=1 --", '${7*7}', '{{7*7}}',
    'summary_metrics', 'today', 'last_7d', '2025-06-01', '9999-99-99', '-271821-04-20', 'web_acme_store', 'org_acme',
    '__proto__', 'constructor', 'prototype', 'Europe/Berlin', 'Not/AZone', '\r\nX-Injected: 1', 'é'.repeat(3),
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer({ min: 1, max: 200_000 }).map((n) => 'x'.repeat(n)),
);

/** The field names a schema declares, a few levels deep (objects, arrays, unions, wrappers). */
function schemaKeys(schema: z.ZodType | undefined): string[] {
  const keys = new Set<string>();
  const visit = (node: unknown, depth: number): void => {
    if (!node || depth > 5) return;
    const def = (node as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    if (!def) return;
    const shape = def.shape as Record<string, unknown> | undefined;
    for (const [key, child] of Object.entries(shape ?? {})) {
      keys.add(key);
      visit(child, depth + 1);
    }
    for (const inner of [def.innerType, def.element, def.in, def.out]) visit(inner, depth + 1);
    for (const option of (def.options as unknown[] | undefined) ?? []) visit(option, depth + 1);
  };
  visit(schema, 0);
  return [...keys];
}

/** A JSON value that means harm: wrong types, prototype keys, big strings, long lists. */
function hostileValue(keys: readonly string[]): fc.Arbitrary<unknown> {
  const key = fc.oneof(fc.constantFrom(...keys, ...PROTO_KEYS), fc.string({ maxLength: 12 }));
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2),
      nastyString,
      fc.array(tie('value'), { maxLength: 6 }),
      fc.dictionary(key, tie('value'), { maxKeys: 6 }),
    ),
  }));
  return value;
}

/** A list long enough to matter, of one small item repeated. */
const longList: fc.Arbitrary<unknown[]> = fc
  .tuple(fc.constantFrom<unknown>(1, 'x', 'summary_metrics', {}, [], null, { field: 1 }, { field: 'path', op: 'eq', value: '/' }, { name: 'e' }), fc.integer({ min: 50, max: 60_000 }))
  .map(([item, n]) => Array.from({ length: n }, () => item));

/** A body text for a route: hostile JSON, long lists, deep nesting, prototype keys, broken JSON. */
function hostileBody(route: Route | undefined): fc.Arbitrary<string> {
  const keys = schemaKeys(route?.body);
  const value = hostileValue(keys.length > 0 ? keys : ['x']);
  const keyed = keys.length > 0 ? fc.constantFrom(...keys) : fc.constant('parameters');
  return fc.oneof(
    value.map((v) => JSON.stringify(v) ?? 'null'),
    fc.tuple(keyed, longList).map(([k, list]) => JSON.stringify({ [k]: list })),
    longList.map((list) => JSON.stringify(list)),
    fc.tuple(keyed, longList).map(([k, list]) => JSON.stringify(Array.from({ length: 3 }, () => ({ [k]: list.slice(0, 2000), parameters: ['summary_metrics'], preset: 'today' })))),
    fc.tuple(fc.constantFrom('[', '{"a":', '{"parameters":['), fc.integer({ min: 1, max: 250_000 })).map(([open, depth]) => {
      const close = open === '[' ? ']' : open === '{"a":' ? '}' : ']}';
      return open.repeat(depth) + '1' + close.repeat(depth);
    }),
    fc.constantFrom(
      '{"__proto__":{"polluted":"yes"},"parameters":["summary_metrics"],"preset":"today"}',
      '{"constructor":{"prototype":{"polluted":"yes"}},"name":"x"}',
      '[{"__proto__":{"polluted":"yes"}},{"constructor":{"prototype":{"polluted":"yes"}}}]',
      '{"parameters":["summary_metrics"],"preset":"today","filters":[{"field":"__proto__","op":"eq","value":"x"}]}',
      '{"name":"e","properties":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":1}}}}',
    ),
    fc.constantFrom('', ' ', '{', '{"a":', '[1,', 'nul', '{"a":1}}', '\ud800', '{"a":"\ud800"}', '\uFEFF{}', "{'a':1}", '{"a":1,}', '0x10', '"'),
    fc.integer({ min: 1, max: 1_100_000 }).map((n) => JSON.stringify({ [keys[0] ?? 'name']: 'y'.repeat(n) })),
    fc.tuple(fc.constantFrom(...(keys.length > 0 ? keys : ['x'])), value).map(([k, v]) =>
      JSON.stringify({ parameters: ['summary_metrics'], preset: 'last_7d', projectId: 'web_acme_store', type: 'summary_metrics', from: '2025-05-01', to: '2025-05-31', name: 'e', [k]: v }),
    ),
  );
}

/** A path segment percent-encoded, or as is when it holds a lone surrogate. */
function encodePart(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A path from the tables, its parameters filled with ids or hostile text; now and then a path no route has. */
function hostilePath(route: Route, ids: readonly string[]): fc.Arbitrary<string> {
  const segment = fc.oneof(fc.constantFrom(...ids), nastyString.map((s) => s.slice(0, 300)), nastyString.map((s) => encodePart(s).slice(0, 300)));
  const names = route.path.match(/:[A-Za-z]+/g) ?? [];
  return fc.tuple(fc.array(segment, { minLength: names.length, maxLength: names.length }), fc.constantFrom('', '', '', '/', '/extra', '//', '/..'))
    .map(([values, suffix]) => {
      let i = 0;
      return route.path.replace(/:[A-Za-z]+/g, () => values[i++] as string) + suffix;
    });
}

/** Headers a client might send, some valid credentials, most not. */
function hostileHeaders(credentials: Credentials): fc.Arbitrary<Record<string, string>> {
  const secret = fc.constantFrom(...credentials.apiKeys);
  const credential = fc.oneof(
    fc.constant<Record<string, string>>({}),
    secret.map((s) => ({ 'x-api-key': s })),
    secret.map((s) => ({ authorization: `Bearer ${s}` })),
    fc.constantFrom(...credentials.sessionTokens).map((t) => ({ cookie: `databuddy.session_token=${t}` })),
    nastyString.map((s) => ({ 'x-api-key': s })),
    nastyString.map((s) => ({ authorization: `Bearer ${s}` })),
    nastyString.map((s) => ({ cookie: `databuddy.session_token=${s}; __proto__=1` })),
  );
  const other = fc.record(
    {
      'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', ''),
      origin: fc.constantFrom('http://localhost:3000', 'http://127.0.0.1', 'https://evil.example', 'null', ''),
      host: fc.constantFrom('localhost', '127.0.0.1:8787', 'evil.example', ''),
      'x-forwarded-for': fc.constantFrom('1.2.3.4', '::1', 'garbage', '1.1.1.1, 2.2.2.2'),
      'access-control-request-method': fc.constantFrom('POST', 'GET', 'DELETE', 'BREW'),
      accept: fc.constantFrom('application/json', 'text/html', '*/*'),
      'idempotency-key': nastyString,
      ['__proto__']: nastyString,
    },
    { requiredKeys: [] },
  );
  return fc.tuple(credential, other).map(([a, b]) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of [...Object.entries(b), ...Object.entries(a)]) Object.defineProperty(headers, k, { value: v, enumerable: true, writable: true, configurable: true });
    return headers;
  });
}

/** A query string: the route's declared names and others, with hostile values. */
function hostileQuery(route: Route, ids: readonly string[]): fc.Arbitrary<Record<string, string>> {
  const names = [...schemaKeys(route.query as z.ZodType | undefined), ...PROTO_KEYS, 'website_id', 'organization_id', 'page', 'limit', 'cursor', 'timezone'];
  const value = fc.oneof(fc.constantFrom(...ids), nastyString);
  return fc.oneof(
    fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 10 })), value, { maxKeys: 6 }),
    fc.integer({ min: 100, max: 20_000 }).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`q${i}`, '1']))),
  ).map((dict) => {
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(dict)) Object.defineProperty(query, k, { value: v, enumerable: true, writable: true, configurable: true });
    return query;
  });
}

/** One hostile request against a route of the tables (or a mangled path near one). */
export function hostileRequest(credentials: Credentials): fc.Arbitrary<SimRequest> {
  return fc.constantFrom(...ALL_ROUTES).chain((route) =>
    fc.record({
      method: fc.oneof({ weight: 3, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      path: hostilePath(route, credentials.ids),
      query: hostileQuery(route, credentials.ids),
      headers: hostileHeaders(credentials),
      body: fc.option(hostileBody(route), { nil: undefined, freq: 6 }),
    }).map((r): SimRequest => ({ method: r.method, path: r.path, query: r.query, headers: r.headers, ...(r.body !== undefined ? { body: r.body } : {}) })),
  );
}
